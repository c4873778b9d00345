import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct MetricsTextTests {
    @Test func listsUpstreamCallsPerEndpointAndTheCoalescedCount() {
        var metrics = UpstreamMetrics()
        metrics.upstreamCalls[.combinedStats] = 7
        metrics.upstreamFailures[.users] = 2
        metrics.coalesced = 3
        let text = MetricsText.render(upstream: metrics, settingsFiles: 5)
        #expect(text.contains("habits_upstream_calls_total{endpoint=\"combinedStats\"} 7\n"))
        #expect(text.contains("habits_upstream_calls_total{endpoint=\"users\"} 0\n"))
        #expect(text.contains("habits_upstream_failures_total{endpoint=\"users\"} 2\n"))
        #expect(text.contains("habits_cache_coalesced_total 3\n"))
        #expect(text.contains("habits_settings_files 5\n"))
    }

    @Test func reportsTheLogLinesSummedAndDropped() {
        let text = MetricsText.render(upstream: UpstreamMetrics(), settingsFiles: 0, log: (summed: 21_000, dropped: 12))
        #expect(text.contains("habits_log_lines_summed_total 21000\n"))
        #expect(text.contains("habits_log_lines_dropped_total 12\n"))
    }
}
