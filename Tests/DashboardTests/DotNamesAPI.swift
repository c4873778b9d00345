import HabitsAPI

@testable import Dashboard

/// A `HabitsAPI` whose habit and person names are exactly `.` and `..`: the names browsers remove from URL paths.
struct DotNamesAPI: HabitsAPI {
    static let category = Category(name: "Dots", color: Color(hue: 0.1, saturation: 0.5, brightness: 0.9))
    static let dotDot = Habit(name: "..", category: category, info: "Two dots.")
    static let dot = Habit(name: ".", category: category, info: "One dot.")
    static let personDot = User(id: ".", name: "Dot", color: nil, bio: "My id is a single dot.")
    static let personDotDot = User(id: "..", name: "Dot Dot", color: nil, bio: nil)
    static let active = User(id: User.activeUserID, name: "Active User")

    func users() async throws -> [String: User] {
        [".": Self.personDot, "..": Self.personDotDot, User.activeUserID: Self.active]
    }
    func habits() async throws -> [String: Habit] { ["..": Self.dotDot, ".": Self.dot] }
    func categories() async throws -> [Category] { [Self.category] }
    func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await combinedStatistics().userStatistics
    }
    func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await combinedStatistics().habitStatistics
    }
    func combinedStatistics() async throws -> CombinedStatistics {
        CombinedStatistics(
            userStatistics: [
                UserStatistics(user: Self.personDot, habitCounts: [HabitCount(habit: Self.dotDot, count: 2)]),
                UserStatistics(user: Self.personDotDot, habitCounts: [HabitCount(habit: Self.dot, count: 1)]),
                UserStatistics(user: Self.active, habitCounts: [HabitCount(habit: Self.dotDot, count: 1)]),
            ],
            habitStatistics: [
                HabitStatistics(
                    habit: Self.dotDot,
                    userCounts: [UserCount(user: Self.personDot, count: 2), UserCount(user: Self.active, count: 1)]),
                HabitStatistics(habit: Self.dot, userCounts: [UserCount(user: Self.personDotDot, count: 1)]),
            ])
    }
    func userLeadingStatistics(id: String) async throws -> UserStatistics {
        guard let user = try await users()[id] else { throw HabitsAPIError.status(404, path: "/userLeadingStats") }
        return UserStatistics(user: user, habitCounts: [])
    }
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        guard try await users()[id] != nil else { throw HabitsAPIError.status(404, path: "/images") }
        return (bytes: Array("PNG:\(id)".utf8), contentType: "image/png")
    }
    func log(_ habit: LoggedHabit) async throws {}
}
