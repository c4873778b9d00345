/// Counters of the shared cache, for `/metrics` and tests.
public struct CacheMetrics: Sendable, Equatable {
    /// Calls made to the upstream, per endpoint (including POSTs passed through).
    public var upstreamCalls: [Endpoint: Int] = [:]
    /// Upstream calls that failed, per endpoint.
    public var upstreamFailures: [Endpoint: Int] = [:]
    /// Answers served from a fresh entry.
    public var hits = 0
    /// Callers that joined a fetch another caller had started.
    public var coalesced = 0
    /// Answers served from the last good value after a failure.
    public var staleServed = 0
    /// Answers served at once from an expired value (not known to be failing) while a background refresh runs.
    public var servedWhileRefreshing = 0
    /// Bytes of image bodies held in the cache now (bounded by `CachePolicy.imageBudgetBytes`).
    public var imageBytes = 0

    /// Creates empty metrics.
    public init() {}

    /// All upstream calls.
    public var totalUpstreamCalls: Int { upstreamCalls.values.reduce(0, +) }
}
