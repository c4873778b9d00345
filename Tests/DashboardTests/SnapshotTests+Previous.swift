import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// A snapshot built from the one it replaces (issue 21 point 2: a refresh's cost grows with what changed) shows the
/// same as one built from nothing, and reuses nothing when the reference data changed.
@Suite struct SnapshotPreviousTests {
    func inputs(_ counts: [String: [String: Int]], users: [String: User] = TestData.users) -> SnapshotInputs {
        SnapshotInputs(users: users, habits: TestData.habits, statistics: TestData.statistics(counts))
    }

    @Test func aNewCountBuiltFromThePreviousSnapshotShowsWhatAFreshBuildShows() {
        let previous = Snapshot(inputs: inputs(["Yoga": ["user1": 2, "user2": 3]]))
        let next = inputs(["Yoga": ["user1": 4, "user2": 3, "user3": 1]])
        let reused = Snapshot(inputs: next, previous: previous)
        let fresh = Snapshot(inputs: next)
        #expect(reused.version == fresh.version)
        #expect(reused.rankings["Yoga"] == fresh.rankings["Yoga"])
        #expect(reused.allPersonCards == fresh.allPersonCards)
        #expect(reused.sortedUsers.map(\.id) == fresh.sortedUsers.map(\.id))
        #expect(reused.nameSearch.matches("a") == fresh.nameSearch.matches("a"))
        #expect(reused.countGroups(of: "Yoga") == fresh.countGroups(of: "Yoga"))
    }

    @Test func aRenamedPersonIsSortedAndFoundUnderTheNewName() {
        let previous = Snapshot(inputs: inputs([:]))
        var users = TestData.users
        users["user1"]?.name = "Zed"
        let reused = Snapshot(inputs: inputs([:], users: users), previous: previous)
        #expect(reused.sortedUsers.suffix(2).map(\.name) == ["Zed", "zoe"])
        #expect(reused.nameSearch.matches("zed").map { reused.personCard(at: $0).userID } == ["user1"])
        #expect(
            reused.allPersonCards.map(\.name) == Snapshot(inputs: inputs([:], users: users)).allPersonCards.map(\.name))
    }

    @Test func aHabitWhoseStatisticsAreUnchangedKeepsItsRankingAndCard() {
        let previous = Snapshot(inputs: inputs(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 1]]))
        let next = inputs(["Yoga": ["user1": 2, "user2": 3], "Run": ["user1": 2, "user3": 2]])
        let reused = Snapshot(inputs: next, previous: previous)
        let fresh = Snapshot(inputs: next)
        #expect(reused.rankings == fresh.rankings)
        #expect(reused.leaderboardCards == fresh.leaderboardCards)
        #expect(reused.leading.mapValues { $0.map(\.count) } == fresh.leading.mapValues { $0.map(\.count) })
        #expect(reused.rankings["Run"]?.entries.map(\.rank) == [1, 1])
    }

    /// Only the statistics carry the new name (the users list is the same): the ranking is rebuilt, not kept.
    @Test func aNameChangedOnlyInTheStatisticsIsNotHiddenByReuse() {
        let before = inputs(["Yoga": ["user1": 2]])
        let previous = Snapshot(inputs: before)
        var next = before
        next.statistics.habitStatistics = next.statistics.habitStatistics.map { entry in
            var entry = entry
            entry.userCounts = entry.userCounts.map { count in
                var count = count
                count.user.name = "Renamed"
                return count
            }
            return entry
        }
        let reused = Snapshot(inputs: next, previous: previous)
        #expect(reused.rankings["Yoga"]?.entries.map(\.name) == ["Renamed"])
        #expect(reused.leaderboardCards["Yoga"]?.leader.name == "Renamed")
    }
}

extension Snapshot {
    /// Every person's People card, in name order (the snapshot makes only the cards of the page shown).
    fileprivate var allPersonCards: [PersonCard] { sortedUsers.indices.map(personCard(at:)) }
}
