import HabitsAPI

/// The production `DashboardData`: the shared cache's values with their "as of" time, stale ones marked.
///
/// A wrapper rather than a conformance of `CachedHabitsAPI` itself, whose plain `HabitsAPI` methods have the same
/// names: overloading them on the return type would make every call on the cache ambiguous.
public struct CachedData: DashboardData {
    /// The shared cache.
    public let cache: CachedHabitsAPI

    /// Wraps the cache.
    public init(cache: CachedHabitsAPI) { self.cache = cache }

    public func users() async throws -> Cached<[String: User]> { try await cache.load(UsersRequest()) }
    public func habits() async throws -> Cached<[String: Habit]> { try await cache.load(HabitsRequest()) }
    public func categories() async throws -> Cached<[Category]> { try await cache.load(CategoriesRequest()) }
    public func combinedStatistics() async throws -> Cached<CombinedStatistics> {
        try await cache.load(CombinedStatisticsRequest())
    }
    public func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics> {
        try await cache.load(UserLeadingStatisticsRequest(userID: id))
    }
    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await cache.image(id: id)
    }
    public func log(_ habit: LoggedHabit) async throws { try await cache.log(habit) }
}
