/// The Habits API as the dashboard uses it (SPEC §3). The real client, the cache and the tests' fakes conform.
public protocol HabitsAPI: Sendable {
    /// `GET /users`: every user keyed by id.
    func users() async throws -> [String: User]
    /// `GET /habits`: every habit keyed by name.
    func habits() async throws -> [String: Habit]
    /// `GET /categories`.
    func categories() async throws -> [Category]
    /// `GET /userStats[?ids=a,b]`; nil asks for every user.
    func userStatistics(ids: [String]?) async throws -> [UserStatistics]
    /// `GET /habitStats[?names=A,B]`; nil asks for every habit.
    func habitStatistics(names: [String]?) async throws -> [HabitStatistics]
    /// `GET /combinedStats`.
    func combinedStatistics() async throws -> CombinedStatistics
    /// `GET /userLeadingStats/<id>`: only the habits the user leads.
    func userLeadingStatistics(id: String) async throws -> UserStatistics
    /// `GET /images/<id>`: the profile image bytes and their content type.
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String)
    /// `POST /loggedHabit`.
    func log(_ habit: LoggedHabit) async throws
}
