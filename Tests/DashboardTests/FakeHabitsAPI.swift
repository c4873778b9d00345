import Foundation
import HabitsAPI

@testable import Dashboard

/// A `HabitsAPI` answering from `Fixture`, recording logged habits (which then count), and able to fail on demand.
///
/// It answers any request as the server would, with bytes the request decodes itself: no list of typed methods.
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

    func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        try request.decode(try await answer(request))
    }

    /// What the server would answer, as bytes the request decodes itself.
    private func answer(_ request: some APIRequest) async throws -> HTTPClientResponse {
        let id = request.path.split(separator: "/").last.flatMap { String($0).removingPercentEncoding } ?? ""
        switch request.endpoint {
        case .users: return try json(checked(Fixture.users))
        case .habits: return try json(checked(Fixture.habits))
        case .categories: return try json(checked(Fixture.categories))
        case .userStats: return try json(try statistics().userStatistics)
        case .habitStats: return try json(try statistics().habitStatistics)
        case .combinedStats: return try json(try statistics())
        case .userLeadingStats:
            lock.withLock { state.perUserCalls.append(id) }
            try check()
            guard Fixture.users[id] != nil else { throw HabitsAPIError.status(404, path: request.target) }
            return try json(Fixture.leading(id))
        case .image:
            lock.withLock { state.perUserCalls.append(id) }
            try check()
            guard Fixture.users[id] != nil else { throw HabitsAPIError.status(404, path: request.target) }
            let contentType = lock.withLock { state.imageContentType }
            return HTTPClientResponse(
                status: .ok, headers: ["Content-Type": contentType], body: [0x89, 0x50, 0x4E, 0x47])
        case .logHabit:
            try check()
            let habit = try JSONDecoder().decode(LoggedHabit.self, from: Data(request.postBody ?? []))
            guard Fixture.habits[habit.habitName] != nil else { throw HabitsAPIError.status(400, path: request.target) }
            lock.withLock { state.logged.append(habit) }
            return HTTPClientResponse(status: .ok)
        }
    }

    private func checked<T>(_ value: T) throws -> T {
        try check()
        return value
    }

    private func json(_ value: some Encodable) throws -> HTTPClientResponse {
        HTTPClientResponse(status: .ok, body: Array(try JSONEncoder().encode(value)))
    }

    private func statistics() throws -> CombinedStatistics {
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
}
