import Foundation
import HabitsAPI
import Synchronization
import Timing

/// The one clock this target's tests move by hand: the cache's TTLs and "as of" times, and the socket pool's idle
/// ages. Both readings move together, so a test reads either as the clock the code under test uses. `sleep` returns
/// only once `advance` passes its deadline (or its task is cancelled).
final class ManualClock: TimeSource {
    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var sleepers = WaiterRegistry<ContinuousClock.Instant, Void>()
    }

    private let state: Mutex<State>

    /// Starts at the real monotonic now and a fixed wall-clock date.
    init(date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: ContinuousClock.now, date: date))
    }

    /// The current monotonic instant.
    var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The current wall-clock date.
    var date: Date { state.withLock { $0.date } }

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

    /// Moves time by `duration` (negative moves it back, to replay a reordering between threads) and wakes every
    /// sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            state.date = state.date.addingTimeInterval(duration.inSeconds)
            let now = state.now
            return state.sleepers.removeAll { $0 <= now }
        }
        for sleeper in due { sleeper.resume(()) }
    }
}
