import HabitsAPI

/// `/metrics` in the Prometheus text format: the shared cache's upstream calls and hits, and the settings files.
enum MetricsText {
    /// The text for one snapshot.
    static func render(cache: CacheMetrics, settingsFiles: Int) -> String {
        var lines: [String] = [
            "# HELP habits_upstream_calls_total Calls made to the Habits API, per endpoint.",
            "# TYPE habits_upstream_calls_total counter",
        ]
        for endpoint in Endpoint.allCases {
            lines.append(
                "habits_upstream_calls_total{endpoint=\"\(endpoint.rawValue)\"} \(cache.upstreamCalls[endpoint] ?? 0)")
        }
        lines += [
            "# HELP habits_upstream_failures_total Calls to the Habits API that failed, per endpoint.",
            "# TYPE habits_upstream_failures_total counter",
        ]
        for endpoint in Endpoint.allCases {
            lines.append(
                "habits_upstream_failures_total{endpoint=\"\(endpoint.rawValue)\"} \(cache.upstreamFailures[endpoint] ?? 0)"
            )
        }
        lines += [
            "# TYPE habits_cache_hits_total counter", "habits_cache_hits_total \(cache.hits)",
            "# TYPE habits_cache_coalesced_total counter", "habits_cache_coalesced_total \(cache.coalesced)",
            "# TYPE habits_cache_stale_served_total counter", "habits_cache_stale_served_total \(cache.staleServed)",
            "# TYPE habits_settings_files gauge", "habits_settings_files \(settingsFiles)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
