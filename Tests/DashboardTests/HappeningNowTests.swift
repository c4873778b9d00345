import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct HappeningNowTests {
    /// A wall-clock start on a 10 s boundary (the history counts slots from 1970).
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func snapshot(_ counts: [String: [String: Int]]) -> Snapshot {
        Snapshot(
            inputs: SnapshotInputs(
                users: TestData.users, habits: TestData.habits, statistics: TestData.statistics(counts)))
    }

    @Test func withoutAPastPointShowsTheMostActiveOverall() {
        let page = HomePage(
            snapshot: Self.snapshot(["Yoga": ["user1": 3, "user2": 1], "Run": ["user2": 5]]), settings: .default,
            baseline: nil, now: Self.start)
        let happening = page.happening
        #expect(happening?.minutes == nil)
        #expect(happening?.habits.map(\.name) == ["Run", "Yoga"])
        #expect(happening?.people.map(\.name) == ["Bob", "Amy"])
        #expect(happening.map { $0.trend($0.habits[0]) } == "5 in all")
    }

    @Test func comparesWithTheOldestPointOfTheLastFiveMinutes() throws {
        let history = ActivityHistory(spacing: .seconds(10), capacity: 31)
        history.record(Self.snapshot(["Yoga": ["user1": 1], "Run": ["user2": 5]]), at: Self.start)
        // A later total within the same 10 s slot replaces the slot's sample.
        let before = Self.snapshot(["Yoga": ["user1": 3], "Run": ["user2": 5]])
        history.record(before, at: Self.start + TimeInterval(5))
        let now = Self.start + TimeInterval(240)
        let later = Self.snapshot(["Yoga": ["user1": 3, "user3": 2], "Run": ["user2": 9]])
        history.record(later, at: now)
        let baseline = try #require(history.baseline(before: now))
        #expect(baseline.time == Self.start)
        let happening = try #require(
            HomePage(snapshot: later, settings: .default, baseline: baseline, now: now).happening)
        #expect(happening.minutes == 4)
        #expect(happening.habits.map(\.name) == ["Run", "Yoga"])
        #expect(happening.habits.map(\.count) == [4, 2])
        #expect(happening.people.map(\.name) == ["Bob", "Cat"])
        #expect(happening.trend(happening.habits[0]) == "+4 in the last 4 min")
    }

    @Test func forgetsPointsOlderThanTheWindowAndKeepsAtMostItsCapacity() {
        let history = ActivityHistory(spacing: .seconds(10), capacity: 3)
        for step in 0..<10 {
            history.record(
                Self.snapshot(["Yoga": ["user1": step + 1]]), at: Self.start + TimeInterval(Double(step) * 10))
        }
        let now = Self.start + TimeInterval(95)
        #expect(history.baseline(before: now)?.time == Self.start + TimeInterval(70))
        #expect(history.baseline(before: Self.start + TimeInterval(1000)) == nil)
    }

    @Test func aBrowserWithFavouritesSeesNoHappeningNow() {
        let page = HomePage(
            snapshot: Self.snapshot(["Yoga": ["user1": 3]]), settings: Settings(favoriteHabits: ["Yoga"]),
            baseline: nil, now: Self.start)
        #expect(page.happening == nil)
    }
}
