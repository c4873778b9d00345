import Foundation
import HabitsAPI
import Synchronization

/// The one fake upstream of the test targets: a `HabitsAPI` answering from a data set as the server would, with
/// bytes each request decodes itself (so it needs no list of typed methods), recording logged habits (which then
/// count), counting calls per endpoint, failing on demand, and holding calls at its `gate` while a test needs them in
/// flight. Each test target builds it from its own data (`DashboardTests`' `Fixture`, `HabitsAPITests`' JSON files).
public final class FakeHabitsAPI: HabitsAPI {
    /// What the fake serves: statistics and leaders are computed from `counts` (and the habits logged through it).
    public struct DataSet: Sendable {
        /// Every user, keyed by id.
        public var users: [String: User]
        /// Every habit, keyed by name.
        public var habits: [String: Habit]
        /// The categories.
        public var categories: [Category]
        /// Counts per (user, habit).
        public var counts: [(User, Habit, Int)]

        /// A data set as given.
        public init(
            users: [String: User], habits: [String: Habit], categories: [Category], counts: [(User, Habit, Int)]
        ) {
            self.users = users
            self.habits = habits
            self.categories = categories
            self.counts = counts
        }

        /// `/combinedStats` for `counts`.
        public func statistics(counts: [(User, Habit, Int)]? = nil) -> CombinedStatistics {
            let counts = counts ?? self.counts
            return CombinedStatistics(
                userStatistics: users.values.sorted().map { user in
                    UserStatistics(
                        user: user,
                        habitCounts: counts.filter { $0.0 == user }.map { HabitCount(habit: $0.1, count: $0.2) })
                },
                habitStatistics: habits.values.sorted().map { habit in
                    HabitStatistics(
                        habit: habit,
                        userCounts: counts.filter { $0.1 == habit }.map { UserCount(user: $0.0, count: $0.2) })
                })
        }

        /// `/userLeadingStats/<id>` computed from `counts`: the habits `id` leads (ties included).
        public func leading(_ id: String) -> UserStatistics {
            let user = users[id] ?? User(id: id, name: id)
            let led = statistics().habitStatistics.compactMap { statistics -> HabitCount? in
                let top = statistics.userCounts.map(\.count).max() ?? 0
                guard top > 0, let mine = statistics.userCounts.first(where: { $0.user.id == id }), mine.count == top
                else { return nil }
                return HabitCount(habit: statistics.habit, count: mine.count)
            }
            return UserStatistics(user: user, habitCounts: led)
        }
    }

    private struct State {
        var failure: HabitsAPIError?
        var logged: [LoggedHabit] = []
        var imageContentType = "image/png"
        var perUserCalls: [String] = []
        var calls: [Endpoint: Int] = [:]
    }

    /// What it serves.
    public let data: DataSet
    private let state = Mutex(State())
    /// Calls wait here before answering (after they are counted); open unless a test closes it.
    public let gate = Gate()

    /// A fake serving `data`, its gate open.
    public init(data: DataSet) {
        self.data = data
        gate.open()
    }

    /// Every later call throws `error` (nil: answer normally).
    public func fail(with error: HabitsAPIError?) { state.withLock { $0.failure = error } }
    /// The habits logged so far.
    public var logged: [LoggedHabit] { state.withLock { $0.logged } }
    /// The ids `userLeadingStatistics(id:)` and `image(id:)` were asked for, in order.
    public var perUserCalls: [String] { state.withLock { $0.perUserCalls } }
    /// How many times each endpoint was called.
    public var calls: [Endpoint: Int] { state.withLock { $0.calls } }
    /// The content type `image(id:)` claims.
    public func setImageContentType(_ type: String) { state.withLock { $0.imageContentType = type } }

    public func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        state.withLock { $0.calls[request.endpoint, default: 0] += 1 }
        await gate.wait()
        return try request.decode(try answer(request))
    }

    private func check() throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// The data set's counts with every logged habit added.
    private var counts: [(User, Habit, Int)] {
        var counts = data.counts
        for event in logged {
            guard let habit = data.habits[event.habitName], let user = data.users[event.userID] else { continue }
            if let index = counts.firstIndex(where: { $0.0 == user && $0.1 == habit }) {
                counts[index].2 += 1
            } else {
                counts.append((user, habit, 1))
            }
        }
        return counts
    }

    /// What the server would answer, as bytes the request decodes itself.
    private func answer(_ request: some APIRequest) throws -> HTTPClientResponse {
        let id = request.path.split(separator: "/").last.flatMap { String($0).removingPercentEncoding } ?? ""
        switch request.endpoint {
        case .users: return try json(checked(data.users))
        case .habits: return try json(checked(data.habits))
        case .categories: return try json(checked(data.categories))
        case .userStats: return try json(checked(data.statistics(counts: counts).userStatistics))
        case .habitStats: return try json(checked(data.statistics(counts: counts).habitStatistics))
        case .combinedStats: return try json(checked(data.statistics(counts: counts)))
        case .userLeadingStats:
            state.withLock { $0.perUserCalls.append(id) }
            try check()
            guard data.users[id] != nil else { throw HabitsAPIError.status(404, path: request.target) }
            return try json(data.leading(id))
        case .image:
            state.withLock { $0.perUserCalls.append(id) }
            try check()
            guard data.users[id] != nil else { throw HabitsAPIError.status(404, path: request.target) }
            let contentType = state.withLock { $0.imageContentType }
            return HTTPClientResponse(
                status: .ok, headers: ["Content-Type": contentType], body: [0x89, 0x50, 0x4E, 0x47])
        case .logHabit:
            try check()
            let habit = try JSONDecoder().decode(LoggedHabit.self, from: Data(request.postBody ?? []))
            guard data.habits[habit.habitName] != nil else { throw HabitsAPIError.status(400, path: request.target) }
            state.withLock { $0.logged.append(habit) }
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
}
