import HabitsAPI
import TestSupport

/// The shared fake upstream over this target's JSON `Fixtures/`, the server's own answers.
extension FakeHabitsAPI {
    /// A fake serving the users, habits, categories and counts of `Fixtures/`.
    static func fixtures() throws -> FakeHabitsAPI {
        let combined = try Fixtures.decode(CombinedStatistics.self, "combinedStats.json")
        let counts = combined.habitStatistics.flatMap { habit in
            habit.userCounts.map { ($0.user, habit.habit, $0.count) }
        }
        return FakeHabitsAPI(
            data: DataSet(
                users: try Fixtures.decode([String: User].self, "users.json"),
                habits: try Fixtures.decode([String: Habit].self, "habits.json"),
                categories: try Fixtures.decode([Category].self, "categories.json"), counts: counts))
    }
}
