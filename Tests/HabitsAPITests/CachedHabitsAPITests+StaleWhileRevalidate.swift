import Foundation
import Synchronization
import Testing

@testable import HabitsAPI

/// Regression (security review): an expired value with a hanging upstream made the first caller, and every page load
/// each time the failure window lapsed, wait the whole 3 s total timeout before getting the stale value.
extension CachedHabitsAPITests {
    /// Loads the combined statistics in a task and records when it has answered, so a test can tell "answered at
    /// once" from "waiting on the upstream" without a wall-clock bound.
    private func loadInBackground(
        _ cache: CachedHabitsAPI
    ) -> (task: Task<Cached<CombinedStatistics>, any Error>, answered: @Sendable () -> Bool) {
        let done = Mutex(false)
        let task = Task {
            let cached = try await cache.load(CombinedStatisticsRequest())
            done.withLock { $0 = true }
            return cached
        }
        return (task, { done.withLock { $0 } })
    }

    @Test func anExpiredValueIsAnsweredAtOnceWhileTheUpstreamHangs() async throws {
        let cache = cache
        let first = try await cache.load(CombinedStatisticsRequest())
        clock.advance(by: .seconds(5))
        fake.gate.close()
        let (task, answered) = loadInBackground(cache)
        try await eventually { answered() }
        fake.gate.open()
        let cached = try await task.value
        #expect(cached.value == first.value)
        #expect(cached.asOf == first.asOf)
        // Within the bound and no refresh has failed yet: not flagged, but `asOf` tells its true age.
        #expect(!cached.isStale)
        #expect(cache.metrics.upstreamCalls[.combinedStats] == 2)
    }

    @Test func oneHundredCallersOfAnExpiredValueStartExactlyOneRefresh() async throws {
        let cache = cache
        let first = try await cache.load(CombinedStatisticsRequest())
        clock.advance(by: .seconds(1))
        fake.gate.close()
        try await withThrowingTaskGroup(of: Cached<CombinedStatistics>.self) { group in
            for _ in 0..<100 {
                group.addTask { try await cache.load(CombinedStatisticsRequest()) }
            }
            // Every caller answers while the one refresh is still held upstream.
            for try await cached in group { #expect(cached.value == first.value) }
        }
        try await eventually { fake.calls[.combinedStats] == 2 }
        fake.gate.open()
        #expect(fake.calls[.combinedStats] == 2)
        #expect(cache.metrics.upstreamCalls == [.combinedStats: 2])
    }

    @Test func afterTheRefreshSucceedsTheNextCallerSeesTheNewValue() async throws {
        let cache = cache
        let first = try await cache.load(CombinedStatisticsRequest())
        clock.advance(by: .seconds(1))
        let served = try await cache.load(CombinedStatisticsRequest())
        #expect(served.value == first.value)
        let refreshedAt = clock.date
        var latest = served
        for _ in 0..<10_000 where latest.value == first.value {
            await Task.yield()
            latest = try await cache.load(CombinedStatisticsRequest())
        }
        #expect(latest.value.habitStatistics[0].userCounts[0].count == 2)
        #expect(latest.asOf == refreshedAt)
        #expect(!latest.isStale)
        #expect(fake.calls[.combinedStats] == 2)
    }

    @Test func aValueOlderThanTheBoundWaitsForTheUpstream() async throws {
        let cache = cache
        _ = try await cache.load(CombinedStatisticsRequest())
        clock.advance(by: CachePolicy().staleWhileRevalidate + .seconds(1))
        fake.gate.close()
        let (task, answered) = loadInBackground(cache)
        try await eventually { fake.calls[.combinedStats] == 2 }
        #expect(!answered())
        fake.gate.open()
        let cached = try await task.value
        #expect(cached.value.habitStatistics[0].userCounts[0].count == 2)
        #expect(!cached.isStale)
    }

    @Test func afterAFailedRefreshTheValueIsFlaggedStaleAndLaterRetriesDoNotBlock() async throws {
        let cache = cache
        let first = try await cache.load(CombinedStatisticsRequest())
        fake.setFailing(true)
        clock.advance(by: .seconds(1))
        _ = try await cache.load(CombinedStatisticsRequest())  // starts a refresh, which fails
        try await eventually { cache.metrics.upstreamFailures[.combinedStats] == 1 }
        let flagged = try await cache.load(CombinedStatisticsRequest())
        #expect(flagged.isStale)
        #expect(flagged.asOf == first.asOf)

        // The failure window lapses and the upstream now hangs: the retry runs behind the caller's back.
        clock.advance(by: .seconds(0.3))
        fake.gate.close()
        let (task, answered) = loadInBackground(cache)
        try await eventually { answered() }
        #expect(try await task.value.isStale)
        try await eventually { fake.calls[.combinedStats] == 3 }
        fake.gate.open()
    }

    /// A habit logged through the dashboard must show on the page it redirects to, not one poll later.
    @Test func afterLoggingTheNextReadWaitsForTheNewStatistics() async throws {
        let cache = cache
        _ = try await cache.load(CombinedStatisticsRequest())
        try await cache.log(LoggedHabit(userID: "activeUser", habitName: "Yoga", timestamp: clock.date))
        let after = try await cache.load(CombinedStatisticsRequest())
        #expect(after.value.habitStatistics[0].userCounts[0].count == 2)
    }
}
