extension CacheMetrics {
    /// The counters in the Prometheus text format, one `name{labels} value` line each, endpoints sorted, for
    /// a `/metrics` page.
    public var text: String {
        var lines: [String] = []
        for endpoint in Endpoint.allCases.sorted() {
            lines.append(
                "habits_upstream_calls_total{endpoint=\"\(endpoint.rawValue)\"} \(upstreamCalls[endpoint] ?? 0)")
        }
        for endpoint in Endpoint.allCases.sorted() {
            lines.append(
                "habits_upstream_failures_total{endpoint=\"\(endpoint.rawValue)\"} \(upstreamFailures[endpoint] ?? 0)")
        }
        lines.append("habits_cache_hits_total \(hits)")
        lines.append("habits_cache_coalesced_total \(coalesced)")
        lines.append("habits_cache_stale_served_total \(staleServed)")
        return lines.joined(separator: "\n") + "\n"
    }
}
