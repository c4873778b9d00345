import Dispatch
import Synchronization

/// At most `limit` holders at once; the rest wait asynchronously (no thread is blocked while waiting), first come first
/// served, each until its own deadline if it has one.  Guards the socket client's Dispatch threads: each upstream call
/// blocks one for up to the total timeout, and libdispatch's pool is small on 2 cores (it went down under 300 slow
/// clients when each held a thread), so a burst of uncached calls must queue here instead.
final class AsyncLimiter: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// Creates a limiter admitting `limit` holders.
    init(limit: Int) { state = Mutex(State(available: max(1, limit))) }

    /// Waits for a place: true once the caller holds one (it must `release()` it), false if `deadline` passed
    /// first, in which case it holds nothing.
    func acquire(until deadline: ContinuousClock.Instant?) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiterID = state.withLock { state -> UInt64? in
                if state.available > 0 {
                    state.available -= 1
                    return nil
                }
                state.nextWaiterID += 1
                state.waiters.append(Waiter(id: state.nextWaiterID, continuation: continuation))
                return state.nextWaiterID
            }
            guard let waiterID else {
                continuation.resume(returning: true)
                return
            }
            guard let deadline else { return }
            // Signed arithmetic: a deadline already past fires at once instead of wrapping around.
            // Clamped to a day so the nanosecond count below cannot overflow either.
            let delay = min(max(.zero, deadline - ContinuousClock.now), .seconds(86_400))
            let nanoseconds =
                Int(delay.components.seconds) * 1_000_000_000
                + Int(delay.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                // Still waiting: leave the queue. Already admitted by `release()`: nothing to do.
                let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                expired?.resume(returning: false)
            }
        }
    }

    /// How many callers wait for a place now (tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Gives the place to the longest waiter, or back to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Runs `body` holding a place, however long the wait for it.
    func withPlace<T: Sendable, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        _ = await acquire(until: nil)
        defer { release() }
        return try await body()
    }
}
