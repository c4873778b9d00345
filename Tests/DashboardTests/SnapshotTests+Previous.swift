import HabitsAPI
import Testing

@testable import Dashboard

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
        #expect(reused.personCards == fresh.personCards)
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
        #expect(reused.nameSearch.matches("zed").map { reused.personCards[$0].userID } == ["user1"])
        #expect(reused.personCards.map(\.name) == Snapshot(inputs: inputs([:], users: users)).personCards.map(\.name))
    }
}
