import Foundation
import HabitsAPI

/// `DashboardData` straight from a `HabitsAPI`, no cache: every value is fresh, every failure is thrown.
public struct DirectData: DashboardData {
    /// The API called for every value.
    public let api: any HabitsAPI
    /// The wall clock stamping values: `Cached.asOf` is shown to people (tests pass a fixed one).
    public let now: @Sendable () -> Date

    /// Wraps `api`.
    public init(api: any HabitsAPI, now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.now = now
    }

    private func fresh<Value>(_ value: Value) -> Cached<Value> {
        Cached(value: value, asOf: now(), isStale: false)
    }

    public func users() async throws -> Cached<[String: User]> { fresh(try await api.users()) }
    public func habits() async throws -> Cached<[String: Habit]> { fresh(try await api.habits()) }
    public func categories() async throws -> Cached<[Category]> { fresh(try await api.categories()) }
    public func combinedStatistics() async throws -> Cached<CombinedStatistics> {
        fresh(try await api.combinedStatistics())
    }
    public func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics> {
        fresh(try await api.userLeadingStatistics(id: id))
    }
    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await api.image(id: id)
    }
    public func log(_ habit: LoggedHabit) async throws { try await api.log(habit) }
}
