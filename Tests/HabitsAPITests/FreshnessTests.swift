import Foundation
import Testing

@testable import HabitsAPI

/// Drives the cache's pure freshness rules with plain instants: `t(x)` is x seconds after the start.
@Suite struct FreshnessTests {
    let start = ContinuousClock.now
    let policy = Freshness.Policy(ttl: .seconds(1), failureTTL: .milliseconds(250), staleWhileRevalidate: .seconds(30))

    func t(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    /// The wall-clock date stored beside `t(seconds)`, only for "as of".
    func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    /// An entry whose first fetch answered at `t(0)`.
    func answered() -> Freshness {
        var freshness = Freshness(policy: policy)
        let generation = freshness.fetchStarted()
        let stored1 = freshness.fetchSucceeded(generation: generation, at: t(0), date: date(0))
        #expect(stored1)
        return freshness
    }

    @Test func aNewEntryWaitsForOneFetchThatLaterReadersJoin() {
        var freshness = Freshness(policy: policy)
        #expect(freshness.decide(now: t(0)) == .wait(startFetch: true))
        _ = freshness.fetchStarted()
        #expect(freshness.decide(now: t(0)) == .wait(startFetch: false))
    }

    @Test func aGoodAnswerIsFreshForItsTTL() {
        let freshness = answered()
        #expect(freshness.decide(now: t(0.99)) == .fresh)
        #expect(freshness.decide(now: t(1)) != .fresh)
    }

    @Test func anExpiredValueWithinTheBoundIsServedWhileOneRefreshRuns() {
        var freshness = answered()
        #expect(freshness.decide(now: t(5)) == .serve(isStale: false, startRefresh: true))
        _ = freshness.fetchStarted()
        #expect(freshness.decide(now: t(5)) == .serve(isStale: false, startRefresh: false))
    }

    @Test func aValueOlderThanTheBoundWaitsForTheUpstream() {
        let freshness = answered()
        #expect(freshness.decide(now: t(29.9)) == .serve(isStale: false, startRefresh: true))
        #expect(freshness.decide(now: t(30)) == .wait(startFetch: true))
    }

    @Test func withTheBoundOffAnExpiredValueAlwaysWaits() {
        var freshness = Freshness(policy: Freshness.Policy(ttl: .zero, failureTTL: .zero, staleWhileRevalidate: .zero))
        _ = freshness.fetchSucceeded(generation: freshness.fetchStarted(), at: t(0), date: date(0))
        #expect(freshness.decide(now: t(0)) == .wait(startFetch: true))
    }

    @Test func aFailureWithNoValueIsRememberedForTheFailureTTLOnly() {
        var freshness = Freshness(policy: policy)
        let stored2 = freshness.fetchFailed(generation: freshness.fetchStarted(), at: t(0))
        #expect(stored2)
        #expect(freshness.decide(now: t(0.24)) == .failed)
        #expect(freshness.decide(now: t(0.25)) == .wait(startFetch: true))
    }

    @Test func afterAFailedRefreshTheValueIsServedStaleAndRetriesWaitTheFailureTTL() {
        var freshness = answered()
        let stored3 = freshness.fetchFailed(generation: freshness.fetchStarted(), at: t(2))
        #expect(stored3)
        #expect(freshness.decide(now: t(2.1)) == .serve(isStale: true, startRefresh: false))
        #expect(freshness.decide(now: t(2.25)) == .serve(isStale: true, startRefresh: true))
    }

    @Test func pastTheBoundAKnownFailureServesStaleAtOnceInsteadOfWaiting() {
        var freshness = answered()
        let stored4 = freshness.fetchFailed(generation: freshness.fetchStarted(), at: t(40))
        #expect(stored4)
        #expect(freshness.decide(now: t(40.1)) == .serve(isStale: true, startRefresh: false))
        // The failure window is over: one caller retries and waits...
        #expect(freshness.decide(now: t(41)) == .wait(startFetch: true))
        // ...and while that retry runs, the others get the stale value at once.
        _ = freshness.fetchStarted()
        #expect(freshness.decide(now: t(41)) == .serve(isStale: true, startRefresh: false))
    }

    @Test func aSuccessClearsTheFailure() {
        var freshness = answered()
        _ = freshness.fetchFailed(generation: freshness.fetchStarted(), at: t(2))
        let stored5 = freshness.fetchSucceeded(generation: freshness.fetchStarted(), at: t(3), date: date(3))
        #expect(stored5)
        #expect(freshness.decide(now: t(3.5)) == .fresh)
        #expect(freshness.decide(now: t(5)) == .serve(isStale: false, startRefresh: true))
    }

    @Test func invalidationMakesTheNextReadWaitAndDropsTheOlderFetchesAnswer() {
        var freshness = answered()
        let before = freshness.fetchStarted()
        freshness.invalidate()
        #expect(freshness.decide(now: t(0.5)) == .wait(startFetch: true))
        let stored6 = freshness.fetchSucceeded(generation: before, at: t(0.6), date: date(0.6))
        #expect(!stored6)
        let stored7 = freshness.fetchFailed(generation: before, at: t(0.6))
        #expect(!stored7)
        let stored8 = freshness.fetchSucceeded(generation: freshness.fetchStarted(), at: t(0.7), date: date(0.7))
        #expect(stored8)
        #expect(freshness.decide(now: t(0.8)) == .fresh)
    }
}
