import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SnapshotStateScheduleTests {
    let t0 = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    /// A schedule that has fetched everything once, at `t0`.
    func started() -> SnapshotState.Schedule {
        var schedule = SnapshotState.Schedule()
        #expect(schedule.start(now: t0) == .everything)
        schedule.succeeded(now: t0, referenceFetched: true, referenceComplete: true)
        return schedule
    }

    @Test func aRefreshStartsAtMostOncePerInterval() {
        var schedule = started()
        #expect(schedule.start(now: at(0.1)) == .none)
        #expect(schedule.start(now: at(0.25)) == .statistics)
        #expect(schedule.start(now: at(0.3)) == .none, "one is running")
        schedule.succeeded(now: at(0.3), referenceFetched: false, referenceComplete: true)
        #expect(schedule.start(now: at(0.4)) == .none)
        #expect(schedule.start(now: at(0.5)) == .statistics)
    }

    /// The bound behind "at most 4 statistics calls per second": however often it is asked, over 10 s.
    @Test func askingEveryMillisecondStartsFourPerSecond() {
        var schedule = started()
        var starts = 0
        for millisecond in 1...10_000 {
            let now = at(Double(millisecond) / 1000)
            if schedule.start(now: now) != .none {
                starts += 1
                schedule.succeeded(now: now, referenceFetched: false, referenceComplete: true)
            }
        }
        #expect(starts <= 40)
        #expect(starts >= 39)
    }

    @Test func referenceDataComesEveryThirtySecondsOrSoonerWhenOutdated() {
        var schedule = started()
        #expect(schedule.start(now: at(29.7)) == .statistics)
        schedule.succeeded(now: at(29.7), referenceFetched: false, referenceComplete: false)
        #expect(schedule.start(now: at(30)) == .everything, "also due by age")
        schedule.succeeded(now: at(30), referenceFetched: true, referenceComplete: false)
        #expect(schedule.start(now: at(30.5)) == .statistics, "outdated, but fetched less than a second ago")
        schedule.succeeded(now: at(30.5), referenceFetched: false, referenceComplete: false)
        #expect(schedule.start(now: at(31)) == .everything)
    }

    @Test func failuresBackOffExponentiallyUpToTheCap() throws {
        var schedule = started()
        var now = at(1)
        #expect(schedule.start(now: now) != .none)
        var pauses: [Duration] = []
        for _ in 0..<10 {
            schedule.failed(now: now)
            let retry = try #require(schedule.retryAt)
            pauses.append(now.duration(to: retry))
            #expect(schedule.start(now: retry + .seconds(-0.001)) == .none)
            now = retry
            #expect(schedule.start(now: now) != .none)
        }
        #expect(pauses == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30].map { Duration.seconds($0) })
        schedule.succeeded(now: now, referenceFetched: false, referenceComplete: true)
        #expect(schedule.start(now: now + .seconds(0.25)) != .none, "back to the interval")
    }

    @Test func aForcedRefreshSkipsTheIntervalButNeverRunsTwoAtOnce() {
        var schedule = started()
        #expect(schedule.start(now: at(0.01), forced: true) == .statistics)
        #expect(schedule.start(now: at(0.02), forced: true) == .none)
        #expect(schedule.pendingForced)
        schedule.succeeded(now: at(0.03), referenceFetched: false, referenceComplete: true)
        #expect(schedule.start(now: at(0.03)) == .statistics, "the pending one starts at once")
        #expect(!schedule.pendingForced)
    }

    @Test func staleWhenTheLastRefreshFailedOrTheDataIsOld() {
        var schedule = started()
        #expect(!schedule.isStale(now: at(29)))
        #expect(schedule.isStale(now: at(30)))
        _ = schedule.start(now: at(1))
        schedule.failed(now: at(1))
        #expect(schedule.isStale(now: at(1)))
    }

    @Test func aPageWaitsOnlyForARefreshStartedForOldDataFromAHealthyUpstream() {
        var schedule = started()
        _ = schedule.start(now: at(0.5))
        #expect(!schedule.isWorthWaiting, "started for young data: answer at once, however long it takes")
        schedule.succeeded(now: at(3), referenceFetched: false, referenceComplete: true)
        _ = schedule.start(now: at(4))
        #expect(schedule.isWorthWaiting, "started for data 1 s old, as after a quiet spell")
        schedule.failed(now: at(4))
        #expect(schedule.start(now: at(6)) == .statistics)
        #expect(!schedule.isWorthWaiting, "a failing upstream is not waited for")
    }

    @Test func watchedForAWindowAfterALiveRequestOrWhilePollsAreParked() {
        var schedule = started()
        schedule.watched(now: at(1))
        #expect(schedule.isWatched(now: at(5.9), parked: 0))
        #expect(!schedule.isWatched(now: at(6), parked: 0))
        #expect(schedule.isWatched(now: at(60), parked: 1))
    }
}
