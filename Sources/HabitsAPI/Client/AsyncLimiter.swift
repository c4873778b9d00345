import Synchronization

/// At most `limit` holders at once; the rest wait asynchronously (no thread is blocked while waiting), first come
/// first served.
///
/// Guards the socket client's Dispatch threads: each upstream call blocks one for up to the total timeout, and
/// libdispatch's pool is small on 2 cores (TOOLS.md), so a burst of uncached calls must queue here instead.
final class AsyncLimiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    /// Creates a limiter admitting `limit` holders.
    init(limit: Int) { state = Mutex(State(available: max(1, limit))) }

    /// Waits for a place.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives the place to the longest waiter, or back to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a place.
    func withPlace<T: Sendable, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
