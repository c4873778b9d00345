import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The history of a cluster sharing a database (issue 19 point 5): pages read the record as stored once per slot,
/// the same on every dashboard, not the one the refresher records at every refresh.
@Suite struct SharedHistoryTests {
    /// Records nothing anywhere; counts what it was given.
    final class Recorder: HistoryStore, @unchecked Sendable {
        // Only touched from the test's own task.
        var saved: [HistoryRecord] = []
        func load() -> HistoryRecord? { nil }
        func save(_ record: HistoryRecord) { saved.append(record) }
        func flush() {}
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func snapshot(_ count: Int) -> Snapshot {
        Snapshot(
            inputs: SnapshotInputs(
                users: TestData.users, habits: TestData.habits,
                statistics: TestData.statistics(["Yoga": ["user1": count]])))
    }

    @Test func pagesReadTheRecordStoredAtTheSlotsStartNotTheRefreshesWithinIt() {
        let store = Recorder()
        let history = ActivityHistory(store: store, shared: true)
        history.record(Self.snapshot(3), at: Self.start)
        history.record(Self.snapshot(4), at: Self.start + 5)
        #expect(store.saved.count == 1, "stored once per slot")
        #expect(history.habitTrend("Yoga")?.samples == [3], "what was stored, not the refresh after it")
        history.record(Self.snapshot(5), at: Self.start + 10)
        #expect(store.saved.count == 2)
        #expect(history.habitTrend("Yoga")?.samples == [4, 5])
        #expect(
            history.habitTrend("Yoga")?.samples
                == store.saved.last.flatMap { record in
                    record.history.samples("Yoga", person: false, range: .hour)?.samples
                })
    }

    @Test func aLoneDashboardReadsEveryRefreshAsBefore() {
        let history = ActivityHistory(store: Recorder())
        history.record(Self.snapshot(3), at: Self.start)
        history.record(Self.snapshot(4), at: Self.start + 5)
        #expect(history.habitTrend("Yoga")?.samples == [4])
        #expect(history.pageDate(now: Self.start + 7) == Self.start + 7)
    }

    @Test func anAdoptedRecordIsWhatPagesDrawAndWhereRecordingGoesOn() {
        let leader = Recorder()
        let writer = ActivityHistory(store: leader, shared: true)
        writer.record(Self.snapshot(3), at: Self.start)
        writer.record(Self.snapshot(5), at: Self.start + 10)
        let follower = ActivityHistory(store: Recorder(), shared: true)
        follower.adopt(leader.saved.last!)
        #expect(follower.habitTrend("Yoga")?.samples == [3, 5])
        #expect(follower.latestSlot == writer.latestSlot)
        follower.record(Self.snapshot(8), at: Self.start + 20)
        #expect(follower.habitTrend("Yoga")?.samples == [3, 5, 8], "a follower become leader continues the line")
    }

    @Test func aDashboardTakingTheLeadStoresAndShowsItsRecordAtOnceNotAtTheNextSlot() {
        let store = Recorder()
        let history = ActivityHistory(store: store, shared: true)
        history.record(Self.snapshot(3), at: Self.start)
        history.record(Self.snapshot(4), at: Self.start + 5)
        // `ClusterLink.tookTheLead`: what it draws from now on is what the followers read.
        history.flush()
        #expect(store.saved.count == 2)
        #expect(history.habitTrend("Yoga")?.samples == [4], "the record as stored, not the slot's start")
        #expect(
            history.habitTrend("Yoga")?.samples
                == store.saved.last.flatMap { $0.history.samples("Yoga", person: false, range: .hour)?.samples })
    }

    @Test func aRecordAdoptedWithinItsSlotChangesTheTrendKeySoPagesAreDrawnAnew() {
        let leader = Recorder()
        ActivityHistory(store: leader, shared: true).record(Self.snapshot(4), at: Self.start)
        // A dashboard back from a cut recorded the same slot alone, then adopts the stored record of it.
        let alone = ActivityHistory(store: Recorder(), shared: true)
        alone.record(Self.snapshot(3), at: Self.start + 2)
        let before = alone.trendKey
        alone.adopt(leader.saved.last!)
        #expect(alone.latestSlot == TrendHistory.slot(Int(Self.start.timeIntervalSince1970), spacing: 10))
        #expect(alone.trendKey != before, "the render cache must not serve the line it drew alone")
        #expect(alone.habitTrend("Yoga")?.samples == [4])
    }

    @Test func pagesWordTheirTimesAgainstTheStoredSlotSoEveryDashboardRendersTheSame() {
        let history = ActivityHistory(store: Recorder(), shared: true)
        #expect(history.pageDate(now: Self.start + 3) == Self.start + 3, "nothing stored yet")
        history.record(Self.snapshot(3), at: Self.start + 14)
        #expect(history.pageDate(now: Self.start + 17) == Self.start + 10)
        #expect(history.pageDate(now: Self.start + 19.9) == Self.start + 10)
    }
}
