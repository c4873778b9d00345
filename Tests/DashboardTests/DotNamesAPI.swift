import Foundation
import HabitsAPI

@testable import DashboardCore
@testable import DashboardWeb

/// A `HabitsAPI` whose habit and person names are exactly `.` and `..`: the names browsers remove from URL paths.
struct DotNamesAPI: HabitsAPI {
    static let category = Category(name: "Dots", color: Color(hue: 0.1, saturation: 0.5, brightness: 0.9))
    static let dotDot = Habit(name: "..", category: category, info: "Two dots.")
    static let dot = Habit(name: ".", category: category, info: "One dot.")
    static let personDot = User(id: ".", name: "Dot", color: nil, bio: "My id is a single dot.")
    static let personDotDot = User(id: "..", name: "Dot Dot", color: nil, bio: nil)
    static let active = User(id: User.activeUserID, name: "Active User")

    static let users = [".": personDot, "..": personDotDot, User.activeUserID: active]

    func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        let id = request.path.split(separator: "/").last.flatMap { String($0).removingPercentEncoding } ?? ""
        let answer: HTTPClientResponse
        switch request.endpoint {
        case .users: answer = try json(Self.users)
        case .habits: answer = try json(["..": Self.dotDot, ".": Self.dot])
        case .categories: answer = try json([Self.category])
        case .userStats: answer = try json(Self.statistics.userStatistics)
        case .habitStats: answer = try json(Self.statistics.habitStatistics)
        case .combinedStats: answer = try json(Self.statistics)
        case .userLeadingStats:
            guard let user = Self.users[id] else { throw HabitsAPIError.status(404, path: "/userLeadingStats") }
            answer = try json(UserStatistics(user: user, habitCounts: []))
        case .image:
            guard Self.users[id] != nil else { throw HabitsAPIError.status(404, path: "/images") }
            answer = HTTPClientResponse(
                status: .ok, headers: ["Content-Type": "image/png"], body: Array("PNG:\(id)".utf8))
        case .logHabit: answer = HTTPClientResponse(status: .ok)
        }
        return try request.decode(answer)
    }

    private func json(_ value: some Encodable) throws -> HTTPClientResponse {
        HTTPClientResponse(status: .ok, body: Array(try JSONEncoder().encode(value)))
    }

    static var statistics: CombinedStatistics {
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
}
