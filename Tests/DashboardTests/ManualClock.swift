import Foundation
import Synchronization

@testable import Dashboard

/// The one clock this target's tests move by hand: the snapshot store's schedule, long polls and "data as of"
/// times, the new-browser rate limit, and settings usage times and expiry. Its monotonic `now` and wall-clock
/// `date` move together. `sleep` returns only once `advance` passes its deadline (or its task is cancelled), so
/// nothing depends on the machine's speed.
final class ManualClock: SnapshotClock {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    /// Starts at the real monotonic now and `date` (by default the real time, so files the kernel stamps and the
    /// clock agree).
    init(date: Date = Date()) { state = Mutex(State(now: .now, date: date)) }

    /// The current monotonic instant.
    var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The current wall-clock date.
    var date: Date { state.withLock { $0.date } }

    /// How many sleepers wait now.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: ContinuousClock.Instant) async {
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
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.now += duration
            state.date.addTimeInterval(duration.inSeconds)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Moves time forward by whole days.
    func advance(days: Double) { advance(by: .seconds(days * 86_400)) }
}
