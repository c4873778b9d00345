import Foundation
import Synchronization
import Timing

/// The one clock tests move by hand, for everything that takes a `TimeSource`: the snapshot store's schedule, long
/// polls and "data as of" times, the new-browser rate limit, settings usage times, expiry and the hourly sweep, and
/// the socket pool's idle ages. Its monotonic `now` and wall-clock `date` move together. `sleep` returns only once
/// `advance` passes its deadline (or its task is cancelled), so nothing depends on the machine's speed.
public final class ManualClock: TimeSource {
    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var sleepers = WaiterRegistry<ContinuousClock.Instant, Void>()
    }

    private let state: Mutex<State>

    /// Starts at the real monotonic now and `date` (by default the real time, so files the kernel stamps and the
    /// clock agree).
    public init(date: Date = Date()) { state = Mutex(State(now: .now, date: date)) }

    /// The current monotonic instant.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The current wall-clock date.
    public var date: Date { state.withLock { $0.date } }

    /// How many sleepers wait now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: ContinuousClock.Instant) async {
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
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            let (seconds, attoseconds) = duration.components
            state.date.addTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
            let now = state.now
            return state.sleepers.removeAll { $0 <= now }
        }
        for sleeper in due { sleeper.resume(()) }
    }

    /// Moves time forward by whole days.
    public func advance(days: Double) { advance(by: .seconds(days * 86_400)) }
}
