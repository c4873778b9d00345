import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Within a slot, only the totals that changed since the snapshot recorded last are written (issue 21 point 2), and
/// the history is the same as when every total is written.
@Suite struct TotalsChangeTests {
    func snapshot(_ counts: [String: [String: Int]]) -> Snapshot {
        Snapshot(
            inputs: SnapshotInputs(
                users: TestData.users, habits: TestData.habits, statistics: TestData.statistics(counts)))
    }

    @Test func holdsOnlyTheTotalsThatChanged() throws {
        let old = snapshot(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 1]])
        let new = snapshot(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 4]])
        let change = try #require(TotalsChange(from: old, to: new))
        #expect(change.habits == ["Run": 4])
        #expect(change.people == ["user1": 6])
    }

    @Test func isNilWhenTheNamesDiffer() {
        #expect(TotalsChange.changed(from: ["a": 1], to: ["a": 1, "b": 2]) == nil)
        #expect(TotalsChange.changed(from: ["a": 1, "c": 2], to: ["a": 1, "b": 2]) == nil)
        #expect(TotalsChange.changed(from: ["a": 1, "b": 2], to: ["a": 1, "b": 3]) == ["b": 3])
    }

    /// The same totals recorded in every tier, once whole and once as changes within the slot.
    @Test func recordingTheChangesWithinASlotGivesTheHistoryRecordingEverythingGives() throws {
        let steps = [
            snapshot(["Yoga": ["user1": 2], "Run": ["user2": 1]]),
            snapshot(["Yoga": ["user1": 3], "Run": ["user2": 1]]),
            snapshot(["Yoga": ["user1": 3], "Run": ["user2": 5]]),
            snapshot(["Yoga": ["user1": 3], "Run": ["user2": 5]]),
            snapshot(["Yoga": ["user1": 9], "Run": ["user2": 5]]),
        ]
        var whole = TrendHistory()
        var changes = TrendHistory()
        let seconds = [1_000_000, 1_000_003, 1_000_011, 1_000_015, 1_000_400]
        for (place, step) in steps.enumerated() {
            whole.record(habitTotals: step.habitTotals, userTotals: step.userTotals, second: seconds[place])
            let change = place == 0 ? nil : TotalsChange(from: steps[place - 1], to: step)
            changes.record(
                habitTotals: step.habitTotals, userTotals: step.userTotals, second: seconds[place], change: change)
            #expect(changes == whole)
        }
    }

    /// A ranking kept from the snapshot replaced is the same ranking, and has no rank changes.
    @Test func aKeptRankingIsTheSameRankingAndChangesNothing() throws {
        let old = snapshot(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 1]])
        let next = SnapshotInputs(
            users: TestData.users, habits: TestData.habits,
            statistics: TestData.statistics(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 4]]))
        let new = Snapshot(inputs: next, previous: old)
        let fresh = Snapshot(inputs: next)
        let yoga = try #require(new.rankings["Yoga"])
        #expect(try yoga.isSameRanking(as: #require(old.rankings["Yoga"])))
        #expect(try !#require(new.rankings["Run"]).isSameRanking(as: #require(old.rankings["Run"])))
        #expect(RankChanges.between(old, new, second: 5) == RankChanges.between(old, fresh, second: 5))
        #expect(new.habitTotals == fresh.habitTotals)
    }
}
