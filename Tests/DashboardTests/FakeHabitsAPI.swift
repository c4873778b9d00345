import Foundation
import HabitsAPI

@testable import Dashboard

/// A `HabitsAPI` answering from `Fixture`, recording logged habits (which then count), and able to fail on demand.
final class FakeHabitsAPI: HabitsAPI, @unchecked Sendable {
    // Invariant: `state` is only touched under `lock`.
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var failure: HabitsAPIError?
        var logged: [LoggedHabit] = []
        var imageContentType = "image/png"
        var perUserCalls: [String] = []
    }

    /// Every later call throws `error` (nil: answer normally).
    func fail(with error: HabitsAPIError?) { lock.withLock { state.failure = error } }
    /// The habits logged so far.
    var logged: [LoggedHabit] { lock.withLock { state.logged } }
    /// The ids `userLeadingStatistics(id:)` and `image(id:)` were asked for, in order.
    var perUserCalls: [String] { lock.withLock { state.perUserCalls } }
    /// The content type `image(id:)` claims.
    func setImageContentType(_ type: String) { lock.withLock { state.imageContentType = type } }

    private func check() throws {
        if let failure = lock.withLock({ state.failure }) { throw failure }
    }

    private var counts: [(User, Habit, Int)] {
        var counts = Fixture.counts
        for event in logged {
            guard let habit = Fixture.habits[event.habitName], let user = Fixture.users[event.userID] else { continue }
            if let index = counts.firstIndex(where: { $0.0 == user && $0.1 == habit }) {
                counts[index].2 += 1
            } else {
                counts.append((user, habit, 1))
            }
        }
        return counts
    }

    func users() async throws -> [String: User] {
        try check()
        return Fixture.users
    }
    func habits() async throws -> [String: Habit] {
        try check()
        return Fixture.habits
    }
    func categories() async throws -> [Category] {
        try check()
        return Fixture.categories
    }
    func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await combinedStatistics().userStatistics
    }
    func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await combinedStatistics().habitStatistics
    }
    func combinedStatistics() async throws -> CombinedStatistics {
        try check()
        let counts = counts
        return CombinedStatistics(
            userStatistics: Fixture.users.values.sorted().map { user in
                UserStatistics(
                    user: user, habitCounts: counts.filter { $0.0 == user }.map { HabitCount(habit: $0.1, count: $0.2) }
                )
            },
            habitStatistics: Fixture.habits.values.sorted().map { habit in
                HabitStatistics(
                    habit: habit, userCounts: counts.filter { $0.1 == habit }.map { UserCount(user: $0.0, count: $0.2) }
                )
            })
    }
    func userLeadingStatistics(id: String) async throws -> UserStatistics {
        lock.withLock { state.perUserCalls.append(id) }
        try check()
        guard Fixture.users[id] != nil else { throw HabitsAPIError.status(404, path: "/userLeadingStats/\(id)") }
        return Fixture.leading(id)
    }
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        lock.withLock { state.perUserCalls.append(id) }
        try check()
        guard Fixture.users[id] != nil else { throw HabitsAPIError.status(404, path: "/images/\(id)") }
        return ([0x89, 0x50, 0x4E, 0x47], lock.withLock { state.imageContentType })
    }
    func log(_ habit: LoggedHabit) async throws {
        try check()
        guard Fixture.habits[habit.habitName] != nil else {
            throw HabitsAPIError.status(400, path: "/loggedHabit")
        }
        lock.withLock { state.logged.append(habit) }
    }
}
