import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SnapshotTests {
    static let inputs = SnapshotInputs(
        users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories, statistics: Fixture.combined)

    @Test func theSameDataHasTheSameVersion() {
        let first = Snapshot(inputs: Self.inputs)
        let second = Snapshot(inputs: Self.inputs)
        #expect(first.version == second.version)
        #expect(first.referenceVersion == second.referenceVersion)
        #expect(first.statisticsVersion == second.statisticsVersion)
    }

    /// `User ==` compares ids only, so a digest of every field is what notices a rename.
    @Test func renamingAUserChangesTheReferenceVersionOnly() {
        var renamed = Self.inputs
        renamed.users["user0"]?.name = "Aga Orlova-Mork"
        let before = Snapshot(inputs: Self.inputs)
        let after = Snapshot(inputs: renamed)
        #expect(after.referenceVersion != before.referenceVersion)
        #expect(after.statisticsVersion == before.statisticsVersion)
        #expect(after.version != before.version)
    }

    @Test func aNewCountChangesTheStatisticsVersionOnly() {
        var changed = Self.inputs
        changed.statistics.habitStatistics[0].userCounts.append(UserCount(user: Fixture.nobody, count: 1))
        let before = Snapshot(inputs: Self.inputs)
        let after = Snapshot(inputs: changed)
        #expect(after.statisticsVersion != before.statisticsVersion)
        #expect(after.referenceVersion == before.referenceVersion)
    }

    /// The inputs are what gets persisted (issue 13): decoded again they build the same version.
    @Test func inputsRoundTripThroughJSONToTheSameVersion() throws {
        let data = try JSONEncoder().encode(Self.inputs)
        let decoded = try JSONDecoder().decode(SnapshotInputs.self, from: data)
        #expect(Snapshot(inputs: decoded).version == Snapshot(inputs: Self.inputs).version)
    }

    /// The person page no longer asks `/userLeadingStats/<id>`: the snapshot's rankings give the same habits.
    @Test(arguments: ["user0", "user3", "user9", "activeUser"])
    func leadingHabitsAgreeWithTheUpstreamDefinition(id: String) {
        let snapshot = Snapshot(inputs: Self.inputs)
        let computed = Set((snapshot.leading[id] ?? []).map(\.habit.name))
        #expect(computed == Set(Fixture.leading(id).habitCounts.map(\.habit.name)))
    }

    /// The name order is built from the users, habits and the statistics' entries, not from every count; a user
    /// only a count names still takes their place by name in a group of tied counts.
    @Test(arguments: ["Aaron Ghost", "Émile Ghost", "zz ghost"])
    func aUserOnlyACountNamesIsOrderedByNameAmongTheTied(name: String) throws {
        var changed = Self.inputs
        let top = try #require(changed.statistics.habitStatistics[0].userCounts.map(\.count).max())
        let ghost = User(id: "ghost", name: name)
        changed.statistics.habitStatistics[0].userCounts.append(UserCount(user: ghost, count: top))
        let habit = changed.statistics.habitStatistics[0].habit.name
        let leaders = try #require(Snapshot(inputs: changed).countGroups(of: habit).first)
        #expect(leaders.members.contains { $0.userID == "ghost" })
        let expected = leaders.members.sorted {
            NameOrder.precedes($0.name, $1.name, lhsKey: $0.userID, rhsKey: $1.userID)
        }
        #expect(leaders.members.map(\.userID) == expected.map(\.userID))
    }

    @Test func usersAreSortedByNameThenID() {
        let snapshot = Snapshot(inputs: Self.inputs)
        #expect(snapshot.sortedUsers.map(\.id) == ["activeUser", "user0", "user3", "user9"])
        #expect(snapshot.userPlace["user3"] == 2)
    }

    @Test func personPageFromTheSnapshotMatchesThePageFromRawData() throws {
        let snapshot = Snapshot(inputs: Self.inputs)
        for id in Fixture.users.keys {
            let fromSnapshot = PersonDetailPage(userID: id, snapshot: snapshot, settings: Fixture.settings)
            let fromRaw = PersonDetailPage(
                userID: id, users: Fixture.users, statistics: Fixture.userStatistics, leading: Fixture.leading(id),
                settings: Fixture.settings)
            #expect(fromSnapshot == fromRaw, "\(id)")
        }
    }
}
