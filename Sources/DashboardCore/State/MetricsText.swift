import HabitsAPI

/// One cache's bytes now and its budget, for `/metrics`.
public struct CacheUse: Equatable, Sendable {
    /// The cache's name in the `cache` label.
    public var name: String
    /// Bytes held now (as the cache counts them).
    public var bytes: Int
    /// The most it holds.
    public var budget: Int

    /// A cache's figures.
    public init(name: String, bytes: Int, budget: Int) {
        self.name = name
        self.bytes = bytes
        self.budget = budget
    }
}

/// `/metrics` in the Prometheus text format: the upstream calls, the snapshot's refreshes and the settings files.
enum MetricsText {
    /// The text for the current counters.
    static func render(
        upstream: UpstreamMetrics, snapshots: SnapshotStore.Metrics = .init(), settingsFiles: Int,
        log: (summed: Int, dropped: Int) = (0, 0), caches: [CacheUse] = [], cluster: RefresherRole.Role? = nil
    ) -> String {
        var lines: [String] = [
            "# HELP habits_upstream_calls_total Calls made to the Habits API, per endpoint.",
            "# TYPE habits_upstream_calls_total counter",
        ]
        for endpoint in Endpoint.allCases {
            lines.append(
                "habits_upstream_calls_total{endpoint=\"\(endpoint.rawValue)\"} \(upstream.upstreamCalls[endpoint] ?? 0)"
            )
        }
        lines += [
            "# HELP habits_upstream_failures_total Calls to the Habits API that failed, per endpoint.",
            "# TYPE habits_upstream_failures_total counter",
        ]
        for endpoint in Endpoint.allCases {
            lines.append(
                "habits_upstream_failures_total{endpoint=\"\(endpoint.rawValue)\"} \(upstream.upstreamFailures[endpoint] ?? 0)"
            )
        }
        lines += [
            "# HELP habits_cache_coalesced_total Callers that joined an identical upstream call in flight.",
            "# TYPE habits_cache_coalesced_total counter", "habits_cache_coalesced_total \(upstream.coalesced)",
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
        lines += [
            "# HELP habits_cache_bytes Bytes each in-memory cache holds now (issue 23; README states the budgets).",
            "# TYPE habits_cache_bytes gauge",
        ]
        lines += caches.map { "habits_cache_bytes{cache=\"\($0.name)\"} \($0.bytes)" }
        lines += ["# TYPE habits_cache_budget_bytes gauge"]
        lines += caches.map { "habits_cache_budget_bytes{cache=\"\($0.name)\"} \($0.budget)" }
        if let cluster {
            lines += [
                "# HELP habits_cluster_role This dashboard's part in a cluster sharing PostgreSQL (issue 19): 1 for the"
                    + " one it plays. standalone: the database is unreachable, it fetches the upstream itself.",
                "# TYPE habits_cluster_role gauge",
            ]
            lines += [RefresherRole.Role.leader, .follower, .standalone].map {
                "habits_cluster_role{role=\"\($0.rawValue)\"} \($0 == cluster ? 1 : 0)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
