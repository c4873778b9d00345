import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Every cache's byte budget, as the dashboard states them (README, issue 23): together well within the 64 MB the
/// process may use under any flood, with room for connections, the snapshot and the allocator.
@Suite struct CacheBudgetTests {
    /// The budgets `/metrics` reports beside each cache's bytes.
    var budgets: [String: Int] {
        [
            "render": RenderCache.defaultBudget,
            "cards": CardCache.defaultBudget,
            "settings": SettingsStore<Settings>.cacheBudgetBytes,
            "verified_cookies": VerifiedCookies<BrowserID>().budgetBytes,
            "verified_visits": VerifiedCookies<Int>().budgetBytes,
        ]
    }

    @Test func theBudgetsAreTheStatedOnes() {
        #expect(budgets["render"] == 4 << 20)
        #expect(budgets["cards"] == 1 << 20)
        #expect(budgets["settings"] == 8 << 20)
        #expect(budgets["verified_cookies"] == 2_621_440)
        #expect(budgets["verified_visits"] == 2_621_440)
    }

    @Test func togetherTheyLeaveMostOfTheProcesssBoundForEverythingElse() {
        #expect(budgets.values.reduce(0, +) < 20 << 20)
    }

    /// Held polls are not a cache: what they cost grows with the viewers a process holds (issue 46: at most 160 MB
    /// with 10 000 viewers, measured by Benchmarks/viewers.sh), so their budget is per poll, up to the cap.
    @Test func theParkedPollsBudgetIsPerPollUpToTheCap() {
        let polls = ParkedPolls(ParkingLimits())
        #expect(ParkedPolls.bytesPerPoll == 12 * 1024)
        #expect(polls.capacity * ParkedPolls.bytesPerPoll == 64_000 * 12 * 1024)
    }

    /// A settings entry costs what its file holds, so large files cannot fill memory past the budget.
    @Test func aSettingsEntryCostsItsFileSize() {
        let identity = FileStatus.Identity(device: 1, inode: 2, size: 1000, modified: 0, changed: 0)
        #expect(SettingsStore<Settings>.cost(identity) == 2160)
    }

    @Test func metricsReportEachCachesBytesAndBudget() {
        let text = MetricsText.render(
            upstream: .init(), settingsFiles: 0, caches: [CacheUse(name: "render", bytes: 12, budget: 8 << 20)])
        #expect(text.contains("habits_cache_bytes{cache=\"render\"} 12\n"))
        #expect(text.contains("habits_cache_budget_bytes{cache=\"render\"} 8388608\n"))
    }
}
