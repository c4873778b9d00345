import Foundation
import HabitsAPI
import Synchronization

/// A `HabitsAPI` answering from the fixtures, counting calls, and failing or holding calls on demand.
final class FakeHabitsAPI: HabitsAPI {
    private struct State {
        var calls: [String: Int] = [:]
        var failing = false
        var logged: [LoggedHabit] = []
        var combinedVersion = 0
    }

    private let state = Mutex(State())
    /// Calls wait here before answering; open by default.
    let gate = Gate()

    init() { gate.open() }

    /// How many times each method was called.
    var calls: [String: Int] { state.withLock { $0.calls } }
    /// Every habit logged.
    var logged: [LoggedHabit] { state.withLock { $0.logged } }

    /// Makes every later call throw a transport error (or stop doing so).
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    private func call<T>(_ name: String, _ answer: () throws -> T) async throws -> T {
        state.withLock { $0.calls[name, default: 0] += 1 }
        await gate.wait()
        if state.withLock({ $0.failing }) { throw HabitsAPIError.transport("connection refused") }
        return try answer()
    }

    func users() async throws -> [String: User] {
        try await call("users") { try Fixtures.decode([String: User].self, "users.json") }
    }
    func habits() async throws -> [String: Habit] {
        try await call("habits") { try Fixtures.decode([String: Habit].self, "habits.json") }
    }
    func categories() async throws -> [Category] {
        try await call("categories") { try Fixtures.decode([Category].self, "categories.json") }
    }
    func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await call("userStatistics") {
            try Fixtures.decode([UserStatistics].self, "userStats.json").filter { ids?.contains($0.user.id) ?? true }
        }
    }
    func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await call("habitStatistics") {
            try Fixtures.decode([HabitStatistics].self, "habitStats.json").filter {
                names?.contains($0.habit.name) ?? true
            }
        }
    }
    /// Each answer carries one more "Yoga" count for user0 than the last, so tests can tell answers apart.
    func combinedStatistics() async throws -> CombinedStatistics {
        try await call("combinedStatistics") {
            var stats = try Fixtures.decode(CombinedStatistics.self, "combinedStats.json")
            let version = state.withLock { state in
                state.combinedVersion += 1
                return state.combinedVersion
            }
            stats.habitStatistics[0].userCounts[0].count = version
            return stats
        }
    }
    func userLeadingStatistics(id: String) async throws -> UserStatistics {
        try await call("userLeadingStatistics") {
            try Fixtures.decode(UserStatistics.self, "userLeadingStats-user0.json")
        }
    }
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await call("image") { (bytes: Array("PNG:\(id)".utf8), contentType: "image/png") }
    }
    func log(_ habit: LoggedHabit) async throws {
        try await call("log") { state.withLock { $0.logged.append(habit) } }
    }
}
