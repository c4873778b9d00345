/// Counters of the calls made to the Habits API, for `/metrics` and tests.
public struct UpstreamMetrics: Sendable, Equatable {
    /// Calls made to the upstream, per endpoint (including POSTs).
    public var upstreamCalls: [Endpoint: Int] = [:]
    /// Upstream calls that failed, per endpoint.
    public var upstreamFailures: [Endpoint: Int] = [:]
    /// Callers that joined a call another caller had started.
    public var coalesced = 0

    /// Creates empty metrics.
    public init() {}

    /// All upstream calls.
    public var totalUpstreamCalls: Int { upstreamCalls.values.reduce(0, +) }
}
