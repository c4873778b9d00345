import Synchronization
import Timing

/// At most `limit` holders at once; the rest wait asynchronously (no thread is blocked while waiting), first come first
/// served, each until its own deadline if it has one.  Guards the socket client's Dispatch threads: each upstream call
/// blocks one for up to the total timeout, and libdispatch's pool is small on 2 cores (it went down under 300 slow
/// clients when each held a thread), so a burst of uncached calls must queue here instead.
final class AsyncLimiter: Sendable {
    private struct State {
        var available: Int
        /// Callers waiting for a place, oldest first; resumed with true when given one, false at their deadline.
        var waiters = WaiterRegistry<Void, Bool>()
    }

    private let state: Mutex<State>
    private let clock: any TimeSource

    /// Creates a limiter admitting `limit` holders; deadlines are timed on `clock`.
    init(limit: Int, clock: any TimeSource = SystemTimeSource()) {
        state = Mutex(State(available: max(1, limit)))
        self.clock = clock
    }

    /// Waits for a place: true once the caller holds one (it must `release()` it), false if `deadline` passed
    /// first, in which case it holds nothing.
    func acquire(until deadline: ContinuousClock.Instant?) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let admitted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                // Still waiting at the deadline: leave the queue. Admitted by `release()` first: the timer is cancelled.
                state.waiters.add((), continuation, until: deadline, on: clock) { [self] id in
                    self.state.withLock { $0.waiters.remove(id: id) }?.resume(false)
                }
                return false
            }
            if admitted { continuation.resume(returning: true) }
        }
    }

    /// How many callers wait for a place now (tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Gives the place to the longest waiter, or back to the pool.
    func release() {
        let next = state.withLock { state -> WaiterRegistry<Void, Bool>.Waiter? in
            guard let next = state.waiters.removeFirst() else {
                state.available += 1
                return nil
            }
            return next
        }
        next?.resume(true)
    }

    /// Runs `body` holding a place, however long the wait for it.
    func withPlace<T: Sendable, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        _ = await acquire(until: nil)
        defer { release() }
        return try await body()
    }
}
