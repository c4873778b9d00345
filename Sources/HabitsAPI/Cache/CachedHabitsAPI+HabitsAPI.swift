/// The plain `HabitsAPI` view of the cache: values only (stale ones included), for code that needs no "as of".
extension CachedHabitsAPI {
    public func users() async throws -> [String: User] { try await load(UsersRequest()).value }
    public func habits() async throws -> [String: Habit] { try await load(HabitsRequest()).value }
    public func categories() async throws -> [Category] { try await load(CategoriesRequest()).value }
    public func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await load(UserStatisticsRequest(userIDs: ids)).value
    }
    public func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await load(HabitStatisticsRequest(habitNames: names)).value
    }
    public func combinedStatistics() async throws -> CombinedStatistics {
        try await load(CombinedStatisticsRequest()).value
    }
    public func userLeadingStatistics(id: String) async throws -> UserStatistics {
        try await load(UserLeadingStatisticsRequest(userID: id)).value
    }
    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await load(ImageRequest(userID: id)).value
    }

}
