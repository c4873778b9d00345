/// The Habits API as the dashboard uses it (SPEC §3). The real client, the cache and the tests' fakes conform.
///
/// One generic requirement: each conformer sends any `APIRequest` and answers with its `Response`, so the list of
/// endpoints lives in `Endpoint` and the request types only, never in a conformer.
public protocol HabitsAPI: Sendable {
    /// Sends `request` and returns its typed answer.
    func send<R: APIRequest>(_ request: R) async throws -> R.Response
}

/// Named shorthands for the calls, for readers; each is the matching request sent through `send(_:)`.
extension HabitsAPI {
    /// `GET /users`: every user keyed by id.
    public func users() async throws -> [String: User] { try await send(UsersRequest()) }
    /// `GET /habits`: every habit keyed by name.
    public func habits() async throws -> [String: Habit] { try await send(HabitsRequest()) }
    /// `GET /categories`.
    public func categories() async throws -> [Category] { try await send(CategoriesRequest()) }
    /// `GET /userStats[?ids=a,b]`; nil asks for every user.
    public func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await send(UserStatisticsRequest(userIDs: ids))
    }
    /// `GET /habitStats[?names=A,B]`; nil asks for every habit.
    public func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await send(HabitStatisticsRequest(habitNames: names))
    }
    /// `GET /combinedStats`.
    public func combinedStatistics() async throws -> CombinedStatistics {
        try await send(CombinedStatisticsRequest())
    }
    /// `GET /userLeadingStats/<id>`: only the habits the user leads.
    public func userLeadingStatistics(id: String) async throws -> UserStatistics {
        try await send(UserLeadingStatisticsRequest(userID: id))
    }
    /// `GET /images/<id>`: the profile image bytes and their content type.
    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await send(ImageRequest(userID: id))
    }
    /// `POST /loggedHabit`.
    public func log(_ habit: LoggedHabit) async throws { try await send(LogHabitRequest(habit)) }
}
