import Foundation
import HabitsAPI
import Synchronization
import TestSupport

/// A `HabitsAPI` answering from the fixtures, counting calls, and failing or holding calls on demand.
///
/// It answers any request the way the server would, as bytes the request itself decodes, so it needs no list of
/// typed methods: only what each endpoint returns.
final class FakeHabitsAPI: HabitsAPI {
    private struct State {
        var calls: [Endpoint: Int] = [:]
        var failing = false
        var logged: [LoggedHabit] = []
        var combinedVersion = 0
    }

    private let state = Mutex(State())
    /// Calls wait here before answering; open by default.
    let gate = Gate()

    init() { gate.open() }

    /// How many times each endpoint was called.
    var calls: [Endpoint: Int] { state.withLock { $0.calls } }
    /// Every habit logged.
    var logged: [LoggedHabit] { state.withLock { $0.logged } }

    /// Makes every later call throw a transport error (or stop doing so).
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        state.withLock { $0.calls[request.endpoint, default: 0] += 1 }
        await gate.wait()
        if state.withLock({ $0.failing }) { throw HabitsAPIError.transport("connection refused") }
        return try request.decode(try answer(request))
    }

    /// What the server would answer.
    private func answer(_ request: some APIRequest) throws -> HTTPClientResponse {
        switch request.endpoint {
        case .users: return HTTPClientResponse(status: .ok, body: try Fixtures.bytes("users.json"))
        case .habits: return HTTPClientResponse(status: .ok, body: try Fixtures.bytes("habits.json"))
        case .categories: return HTTPClientResponse(status: .ok, body: try Fixtures.bytes("categories.json"))
        case .userLeadingStats:
            return HTTPClientResponse(status: .ok, body: try Fixtures.bytes("userLeadingStats-user0.json"))
        case .userStats:
            let ids = Self.list(request, "ids")
            return try json(
                try Fixtures.decode([UserStatistics].self, "userStats.json").filter {
                    ids?.contains($0.user.id) ?? true
                })
        case .habitStats:
            let names = Self.list(request, "names")
            return try json(
                try Fixtures.decode([HabitStatistics].self, "habitStats.json").filter {
                    names?.contains($0.habit.name) ?? true
                })
        case .combinedStats:
            // Each answer carries one more "Yoga" count for user0 than the last, so tests can tell answers apart.
            var stats = try Fixtures.decode(CombinedStatistics.self, "combinedStats.json")
            let version = state.withLock { state in
                state.combinedVersion += 1
                return state.combinedVersion
            }
            stats.habitStatistics[0].userCounts[0].count = version
            return try json(stats)
        case .image:
            let id = request.path.split(separator: "/").last.flatMap { String($0).removingPercentEncoding } ?? ""
            return HTTPClientResponse(
                status: .ok, headers: ["Content-Type": "image/png"], body: Array("PNG:\(id)".utf8))
        case .logHabit:
            let event = try JSONDecoder().decode(LoggedHabit.self, from: Data(request.postBody ?? []))
            state.withLock { $0.logged.append(event) }
            return HTTPClientResponse(status: .ok)
        }
    }

    private func json(_ value: some Encodable) throws -> HTTPClientResponse {
        HTTPClientResponse(status: .ok, body: Array(try JSONEncoder().encode(value)))
    }

    /// The comma-separated query parameter `name`, or nil when the request asks for everything.
    private static func list(_ request: some APIRequest, _ name: String) -> [String]? {
        request.queryItems.first { $0.name == name }.map { $0.value.split(separator: ",").map(String.init) }
    }
}
