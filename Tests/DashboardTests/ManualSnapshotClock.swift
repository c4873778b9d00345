import Foundation
import Synchronization

@testable import Dashboard

/// A `SnapshotClock` tests move by hand: `sleep` returns only once `advance` passes its deadline (or its task is
/// cancelled), so nothing depends on the machine's speed.
final class ManualSnapshotClock: SnapshotClock {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    /// Starts at a fixed instant.
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = Mutex(State(now: start)) }

    var now: Date { state.withLock { $0.now } }

    /// How many sleepers wait now.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Date) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let immediate = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if immediate { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
