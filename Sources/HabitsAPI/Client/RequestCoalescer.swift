import Synchronization

/// What sits between the Habits API and the dashboard's snapshot: identical reads in flight at the same time share
/// one upstream call, and every call is counted for `/metrics`. Nothing is kept once a call ends: the snapshot owns
/// freshness (it decides when to fetch, backs off and shows the "data as of" notice), so there is no second policy of
/// time-to-live, stale answers or remembered failures here (issue 18).
///
/// Writes (`POST /loggedHabit`) pass straight through and are never joined.
public final class RequestCoalescer: HabitsAPI {
    private struct State {
        /// The call in flight per request (`method target`), as a `Task<R.Response, any Error>` of its request type.
        var inFlight: [String: any Sendable] = [:]
        var metrics = UpstreamMetrics()
    }

    private let upstream: any HabitsAPI
    private let state = Mutex(State())

    /// Coalesces calls to `upstream`.
    public init(upstream: any HabitsAPI) { self.upstream = upstream }

    /// A snapshot of the counters.
    public var metrics: UpstreamMetrics { state.withLock { $0.metrics } }

    /// The answer to `request`: from the call in flight for the same request if there is one, else from a new call.
    public func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        if request.postBody != nil { return try await call(request) }
        let key = request.method.rawValue + " " + request.target
        let task = state.withLock { state -> Task<R.Response, any Error> in
            // The key (method and target) belongs to exactly one request type, so the cast recovers the task's type.
            if let joined = state.inFlight[key] as? Task<R.Response, any Error> {
                state.metrics.coalesced += 1
                return joined
            }
            let task = Task {
                defer { self.state.withLock { _ = $0.inFlight.removeValue(forKey: key) } }
                return try await self.call(request)
            }
            state.inFlight[key] = task
            return task
        }
        return try await task.value
    }

    /// One upstream call, counted.
    private func call<R: APIRequest>(_ request: R) async throws -> R.Response {
        state.withLock { $0.metrics.upstreamCalls[request.endpoint, default: 0] += 1 }
        do {
            return try await upstream.send(request)
        } catch {
            state.withLock { $0.metrics.upstreamFailures[request.endpoint, default: 0] += 1 }
            throw error
        }
    }
}
