import Foundation
import Testing

@testable import HabitsAPI

@Suite struct CachedHabitsAPITests {
    let fake = FakeHabitsAPI()
    let clock = ManualClock()
    var cache: CachedHabitsAPI { CachedHabitsAPI(upstream: fake, clock: clock) }
    /// Older than the stale-while-revalidate bound, so the next reader waits for the upstream.
    let beyondStaleBound = CachePolicy().staleWhileRevalidate + .seconds(1)

    /// Waits (briefly, without sleeping the thread) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
        #expect(condition())
    }

    @Test func oneHundredConcurrentIdenticalRequestsMakeOneUpstreamCall() async throws {
        let cache = cache
        fake.gate.close()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await cache.users().count }
            }
            // Hold the one upstream call until all 100 callers have arrived, then let it answer.
            try await eventually { cache.metrics.coalesced == 99 }
            fake.gate.open()
            var answers = 0
            for try await count in group {
                #expect(count == 3)
                answers += 1
            }
            #expect(answers == 100)
        }
        #expect(fake.calls[.users] == 1)
        #expect(cache.metrics.upstreamCalls == [.users: 1])
    }

    @Test func differentRequestsDoNotCoalesce() async throws {
        let cache = cache
        _ = try await cache.userStatistics(ids: ["user0"])
        _ = try await cache.userStatistics(ids: ["user1"])
        _ = try await cache.userStatistics(ids: ["user0"])
        _ = try await cache.userStatistics(ids: nil)
        #expect(fake.calls[.userStats] == 3)
        #expect(cache.metrics.hits == 1)
    }

    /// (endpoint call, seconds still fresh, seconds expired)
    @Test(arguments: [(Endpoint.users, 29.9, 30.1), (.combinedStats, 0.7, 0.8), (.image, 299.0, 301.0)])
    func answersAreReusedForTheirTTL(method: Endpoint, fresh: TimeInterval, expired: TimeInterval) async throws {
        let cache = cache
        func call() async throws {
            switch method {
            case .users: _ = try await cache.users()
            case .combinedStats: _ = try await cache.combinedStatistics()
            default: _ = try await cache.image(id: "user0")
            }
        }
        try await call()
        clock.advance(by: .seconds(fresh))
        try await call()
        #expect(fake.calls[method] == 1)
        clock.advance(by: .seconds(expired - fresh))
        try await call()
        // Statistics expired less than the stale-while-revalidate bound ago refresh in the background.
        try await eventually { fake.calls[method] == 2 }
    }

    @Test func servesTheLastGoodValueWithItsTimeWhileTheUpstreamFails() async throws {
        let cache = cache
        let firstTime = clock.date
        let first = try await cache.load(CombinedStatisticsRequest())
        #expect(!first.isStale)
        #expect(first.asOf == firstTime)

        fake.setFailing(true)
        clock.advance(by: beyondStaleBound)
        let stale = try await cache.load(CombinedStatisticsRequest())
        #expect(stale.isStale)
        #expect(stale.asOf == firstTime)
        #expect(stale.value == first.value)
        #expect(fake.calls[.combinedStats] == 2)

        // Within the failure window nobody asks the upstream again.
        clock.advance(by: .seconds(0.2))
        #expect(try await cache.load(CombinedStatisticsRequest()).isStale)
        #expect(fake.calls[.combinedStats] == 2)

        // After it, one retry; still failing, still stale.
        clock.advance(by: .seconds(0.1))
        #expect(try await cache.load(CombinedStatisticsRequest()).asOf == firstTime)
        #expect(fake.calls[.combinedStats] == 3)
        #expect(cache.metrics.upstreamFailures[.combinedStats] == 2)
    }

    @Test func recoversAsSoonAsTheUpstreamAnswersAgain() async throws {
        let cache = cache
        _ = try await cache.load(CombinedStatisticsRequest())
        fake.setFailing(true)
        clock.advance(by: beyondStaleBound)
        #expect(try await cache.load(CombinedStatisticsRequest()).isStale)
        fake.setFailing(false)
        clock.advance(by: .seconds(0.3))
        let recovered = try await cache.load(CombinedStatisticsRequest())
        #expect(!recovered.isStale)
        #expect(recovered.asOf == clock.date)
        #expect(recovered.value.habitStatistics[0].userCounts[0].count == 2)
    }

    @Test func withoutAGoodValueTheFailureIsThrownAndRememberedBriefly() async throws {
        let cache = cache
        fake.setFailing(true)
        await #expect(throws: HabitsAPIError.transport("connection refused")) { try await cache.users() }
        clock.advance(by: .seconds(0.1))
        await #expect(throws: HabitsAPIError.transport("connection refused")) { try await cache.users() }
        #expect(fake.calls[.users] == 1)
        clock.advance(by: .seconds(0.2))
        fake.setFailing(false)
        #expect(try await cache.users().count == 3)
        #expect(fake.calls[.users] == 2)
    }

    @Test func whileARetryIsInFlightKnownFailureServesStaleAtOnce() async throws {
        let cache = cache
        _ = try await cache.load(CombinedStatisticsRequest())
        fake.setFailing(true)
        clock.advance(by: beyondStaleBound)
        _ = try await cache.load(CombinedStatisticsRequest())  // fails, stale
        clock.advance(by: .seconds(0.3))
        fake.gate.close()
        let retry = Task { try await cache.load(CombinedStatisticsRequest()) }
        try await eventually { fake.calls[.combinedStats] == 3 }
        // The retry is stuck upstream; another caller does not queue behind it.
        let meanwhile = try await cache.load(CombinedStatisticsRequest())
        #expect(meanwhile.isStale)
        fake.gate.open()
        #expect(try await retry.value.isStale)
    }

    @Test func loggingPassesThroughAndExpiresTheStatistics() async throws {
        let cache = cache
        _ = try await cache.combinedStatistics()
        _ = try await cache.users()
        let event = LoggedHabit(userID: "activeUser", habitName: "Yoga", timestamp: clock.date)
        try await cache.log(event)
        try await cache.log(event)
        #expect(fake.logged == [event, event])
        _ = try await cache.combinedStatistics()
        _ = try await cache.users()
        #expect(fake.calls[.combinedStats] == 2)
        #expect(fake.calls[.users] == 1)
        #expect(cache.metrics.upstreamCalls[.logHabit] == 2)
    }

    @Test func aFailedLogIsThrownAndCounted() async throws {
        let cache = cache
        fake.setFailing(true)
        let event = LoggedHabit(userID: "activeUser", habitName: "Yoga", timestamp: clock.date)
        await #expect(throws: HabitsAPIError.self) { try await cache.log(event) }
        #expect(cache.metrics.upstreamFailures[.logHabit] == 1)
    }

    @Test func evictsTheLeastRecentlyUsedEntries() async throws {
        var policy = CachePolicy()
        policy.maxEntries = 10
        let cache = CachedHabitsAPI(upstream: fake, policy: policy, clock: clock)
        for index in 0..<30 {
            clock.advance(by: .seconds(0.001))
            _ = try await cache.image(id: "user\(index)")
        }
        _ = try await cache.image(id: "user29")
        #expect(fake.calls[.image] == 30)
        _ = try await cache.image(id: "user0")
        #expect(fake.calls[.image] == 31)
    }
}
