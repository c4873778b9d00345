import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Passed and overtaken from two consecutive snapshots (issue 22 point 3).
@Suite struct RankChangesTests {
    static func snapshot(
        _ counts: [String: [String: Int]], habits: [Habit] = TestData.allHabits, users: [User]? = nil
    ) -> Snapshot {
        let userList = users ?? TestData.allUsers + [TestData.you]
        return Snapshot(
            inputs: SnapshotInputs(
                users: Dictionary(uniqueKeysWithValues: userList.map { ($0.id, $0) }),
                habits: Dictionary(uniqueKeysWithValues: habits.map { ($0.name, $0) }),
                statistics: TestData.statistics(counts, habitList: habits, userList: userList)))
    }

    static let you = User.activeUserID

    func sentences(_ old: Snapshot, _ new: Snapshot) -> [String] {
        RankChanges.between(old, new, second: 100).map(\.sentence)
    }

    @Test func someoneGoingFromBehindToAheadPassedYou() {
        let old = Self.snapshot(["Yoga": [Self.you: 5, "user1": 4, "user2": 1]])
        let new = Self.snapshot(["Yoga": [Self.you: 5, "user1": 6, "user2": 1]])
        #expect(sentences(old, new) == ["Amy passed you in Yoga", "Amy took the lead in Yoga"])
        #expect(RankChanges.between(old, new, second: 100).first?.yourRank == 2)
    }

    @Test func youGoingAheadPassedThem() {
        let old = Self.snapshot(["Run": [Self.you: 2, "user1": 3, "user2": 2, "user3": 9]])
        let new = Self.snapshot(["Run": [Self.you: 4, "user1": 3, "user2": 2, "user3": 9]])
        #expect(sentences(old, new) == ["You passed Amy in Run", "You passed Bob in Run"])
    }

    @Test func reachingATieIsNotPassingButSharesTheLeadAndLeavingOneIsBoth() {
        let tied = Self.snapshot(["Yoga": [Self.you: 5, "user1": 5]])
        let behind = Self.snapshot(["Yoga": [Self.you: 5, "user1": 4]])
        #expect(sentences(behind, tied) == ["Amy tied you for the lead in Yoga"])
        let ahead = Self.snapshot(["Yoga": [Self.you: 5, "user1": 6]])
        #expect(sentences(tied, ahead) == ["Amy passed you in Yoga", "Amy took the lead in Yoga"])
    }

    @Test func aPersonEnteringAheadPassedYouAndOneLeavingPassedNobody() {
        let old = Self.snapshot(["Yoga": [Self.you: 2, "user1": 7]])
        let new = Self.snapshot(["Yoga": [Self.you: 2, "user2": 3]])
        #expect(sentences(old, new) == ["Bob passed you in Yoga", "Bob took the lead in Yoga"])
    }

    @Test func aHabitYouNeverLoggedTellsYouOnlyOfItsLeader() {
        let old = Self.snapshot(["Yoga": ["user1": 1]])
        let new = Self.snapshot(["Yoga": ["user1": 1, "user2": 2]])
        #expect(sentences(old, new) == ["Bob took the lead in Yoga"])
    }

    @Test func aRenamedPersonIsMatchedByIdAndNamedAsNow() {
        let old = Self.snapshot(["Yoga": [Self.you: 3, "user1": 2]])
        let renamed = User(id: "user1", name: "Amy Pond", color: nil)
        let new = Self.snapshot(
            ["Yoga": [Self.you: 3, "user1": 4]], users: [renamed, TestData.bob, TestData.you])
        #expect(sentences(old, new) == ["Amy Pond passed you in Yoga", "Amy Pond took the lead in Yoga"])
    }

    @Test func aHabitThatDisappearsOrAppearsTellsNothing() {
        let old = Self.snapshot(["Yoga": [Self.you: 3, "user1": 2]], habits: [TestData.yoga])
        let new = Self.snapshot(["Run": [Self.you: 1, "user1": 4]], habits: [TestData.run])
        #expect(sentences(old, new).isEmpty)
    }

    @Test func theLogKeepsADayAndItsCapacityNewestLast() {
        var log = MomentLog(capacity: 3, maxAge: 100)
        let change = { (second: Int) in
            RankChange(kind: .passedYou, habit: "Yoga", userID: "user1", userName: "Amy", yourRank: 2, second: second)
        }
        log.append([change(1), change(2)], now: 2)
        log.append([change(50), change(60)], now: 60)
        #expect(log.changes.map(\.second) == [2, 50, 60])
        log.append([], now: 155)
        #expect(log.changes.map(\.second) == [60])
        #expect(log.latest(between: "user1", notBefore: 0)?.second == 60)
        #expect(log.latest(between: "user1", notBefore: 61) == nil)
        #expect(log.since(59).map(\.second) == [60])
    }
}
