import HabitsAPI

/// `/metrics` in the Prometheus text format: the shared cache's upstream calls and hits, and the settings files.
enum MetricsText {
    /// The text for the current counters.
    static func render(
        cache: CacheMetrics, snapshots: SnapshotStore.Metrics = .init(), settingsFiles: Int,
        log: (summed: Int, dropped: Int) = (0, 0)
    ) -> String {
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
            "# HELP habits_snapshot_refreshes_total Snapshot refreshes started (one statistics call each).",
            "# TYPE habits_snapshot_refreshes_total counter",
            "habits_snapshot_refreshes_total \(snapshots.refreshes)",
            "# TYPE habits_snapshot_refresh_failures_total counter",
            "habits_snapshot_refresh_failures_total \(snapshots.failures)",
            "# HELP habits_snapshot_builds_total Snapshots built (the upstream data changed).",
            "# TYPE habits_snapshot_builds_total counter", "habits_snapshot_builds_total \(snapshots.builds)",
            "# TYPE habits_live_parked gauge", "habits_live_parked \(snapshots.parked)",
            "# HELP habits_log_lines_summed_total Access-log lines summed into a repeated count (issue 23).",
            "# TYPE habits_log_lines_summed_total counter", "habits_log_lines_summed_total \(log.summed)",
            "# HELP habits_log_lines_dropped_total Log lines dropped over the log's byte bound or a stalled stderr.",
            "# TYPE habits_log_lines_dropped_total counter", "habits_log_lines_dropped_total \(log.dropped)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
