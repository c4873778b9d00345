import HabitsAPI

/// The shared cache is the production `DashboardData`: values with their "as of" time, stale ones marked.
extension CachedHabitsAPI: DashboardData {
    public func users() async throws -> Cached<[String: User]> { try await load(UsersRequest()) }
    public func habits() async throws -> Cached<[String: Habit]> { try await load(HabitsRequest()) }
    public func categories() async throws -> Cached<[Category]> { try await load(CategoriesRequest()) }
    public func combinedStatistics() async throws -> Cached<CombinedStatistics> {
        try await load(CombinedStatisticsRequest())
    }
    public func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics> {
        try await load(UserLeadingStatisticsRequest(userID: id))
    }
}
