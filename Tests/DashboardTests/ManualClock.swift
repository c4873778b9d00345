import Foundation
import Synchronization
import Timing

@testable import Dashboard

/// The one clock this target's tests move by hand: the snapshot store's schedule, long polls and "data as of"
/// times, the new-browser rate limit, and settings usage times and expiry. Its monotonic `now` and wall-clock
/// `date` move together. `sleep` returns only once `advance` passes its deadline (or its task is cancelled), so
/// nothing depends on the machine's speed.
final class ManualClock: TimeSource {
    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var sleepers = WaiterRegistry<ContinuousClock.Instant, Void>()
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
        let id = state.withLock { $0.sleepers.reserveID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let immediate = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.add(id: id, deadline, continuation)
                    return false
                }
                if immediate { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.remove(id: id) }?.resume(())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            state.date.addTimeInterval(duration.inSeconds)
            let now = state.now
            return state.sleepers.removeAll { $0 <= now }
        }
        for sleeper in due { sleeper.resume(()) }
    }

    /// Moves time forward by whole days.
    func advance(days: Double) { advance(by: .seconds(days * 86_400)) }
}
