import Foundation
import HabitsAPI
import Testing

@testable import HabitsSimulator

@Suite struct StatisticsSnapshotTests {
    let dataSet = DataSet(
        users: [
            User(id: "u0", name: "Ann", color: Color(hue: 0, saturation: 0, brightness: 0), bio: "Hi"),
            User(id: "u1", name: "Ben"), User(id: "u2", name: "Cat"),
        ],
        activeUser: User(id: "activeUser", name: "Active User"),
        categories: [Category(name: "C", color: Color(hue: 0.5, saturation: 0.5, brightness: 0.5))],
        habits: ["Run", "Swim", "Nap"].map {
            Habit(
                name: $0, category: Category(name: "C", color: Color(hue: 0.5, saturation: 0.5, brightness: 0.5)),
                info: "i")
        })

    /// Counts as `[habit: [user: count]]`, user index 3 being the active user.
    func snapshot(_ counts: [Int: [Int: Int]]) -> StatisticsSnapshot {
        var state = SimulationState(userCount: 3, habitCount: 3, seed: 0)
        for (habit, users) in counts {
            for (user, count) in users {
                for _ in 0..<count { state.record(user: user, habit: habit) }
            }
        }
        return StatisticsSnapshot(counters: state.counters, encoder: StatisticsEncoder(dataSet: dataSet))
    }

    @Test func combinedStatsDecodeAndListEveryHabitIncludingUnloggedOnes() throws {
        let snapshot = snapshot([0: [0: 2, 1: 1]])
        let stats = try JSONDecoder().decode(CombinedStatistics.self, from: Data(snapshot.combined))
        #expect(stats.habitStatistics.map(\.habit.name) == ["Run", "Swim", "Nap"])
        #expect(stats.habitStatistics[0].userCounts.map(\.count) == [2, 1])
        #expect(stats.habitStatistics[1].userCounts.isEmpty)
        #expect(stats.userStatistics.map(\.user.id) == ["u0", "u1", "u2"])
        #expect(stats.userStatistics[2].habitCounts.isEmpty)
        #expect(stats.habitStatistics[0].habit.category.name == "C")
    }

    @Test func rawShapeMatchesTheAPI() throws {
        let snapshot = snapshot([1: [0: 1, 3: 1]])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.combined)) as? [String: Any])
        #expect(Set(object.keys) == ["userStatistics", "habitStatistics"])
        let users = try #require(object["userStatistics"] as? [[String: Any]])
        #expect(users.allSatisfy { Set($0.keys) == ["user", "habitCounts"] })
        let first = try #require(users.first)
        #expect(Set(try #require(first["user"] as? [String: Any]).keys) == ["id", "name", "color", "bio"])
        let habitCount = try #require((first["habitCounts"] as? [[String: Any]])?.first)
        #expect(Set(habitCount.keys) == ["habit", "count"])
        #expect(Set(try #require(habitCount["habit"] as? [String: Any]).keys) == ["name", "category", "info"])
        let habits = try #require(object["habitStatistics"] as? [[String: Any]])
        let swim = try #require(habits.first { ($0["habit"] as? [String: Any])?["name"] as? String == "Swim" })
        let userCounts = try #require(swim["userCounts"] as? [[String: Any]])
        #expect(userCounts.count == 2)
        let active = try #require(userCounts.last?["user"] as? [String: Any])
        #expect(active["name"] as? String == "Active User")
        #expect(active["color"] is NSNull && active["bio"] is NSNull)
    }

    @Test func leadingStatsHoldOnlyHabitsTheUserLeadsWithTiesSharingTheLead() throws {
        let snapshot = snapshot([0: [0: 2, 1: 2, 2: 1], 1: [2: 3], 2: [0: 1, 1: 4]])
        let encoder = StatisticsEncoder(dataSet: dataSet)
        func leading(_ user: Int) throws -> [String] {
            let json = encoder.userStatistics(user: user, counters: snapshot.counters, leadingOnly: true)
            return try JSONDecoder().decode(UserStatistics.self, from: Data(json)).habitCounts.map(\.habit.name)
        }
        #expect(try leading(0) == ["Run"])
        #expect(try leading(1) == ["Run", "Nap"])
        #expect(try leading(2) == ["Swim"])
        #expect(try leading(3) == [])
    }

    @Test func theActiveUserIsListedOnlyAfterLogging() throws {
        let quiet = try JSONDecoder().decode([UserStatistics].self, from: Data(snapshot([:]).allUserStatistics))
        #expect(quiet.map(\.user.id) == ["u0", "u1", "u2"])
        let active = try JSONDecoder().decode(
            [UserStatistics].self, from: Data(snapshot([2: [3: 1]]).allUserStatistics))
        #expect(active.map(\.user.id) == ["u0", "u1", "u2", "activeUser"])
    }
}
