import HabitsAPI

/// Where the dashboard's handlers get Habits API data: the shared cache in production (which can serve the last good
/// value, marked stale, while the upstream is down), or any `HabitsAPI` wrapped in `DirectData` (tests, fakes).
public protocol DashboardData: Sendable {
    /// Every user keyed by id.
    func users() async throws -> Cached<[String: User]>
    /// Every habit keyed by name.
    func habits() async throws -> Cached<[String: Habit]>
    /// Every category.
    func categories() async throws -> Cached<[Category]>
    /// User and habit statistics in one answer: one upstream call serves every page.
    func combinedStatistics() async throws -> Cached<CombinedStatistics>
    /// The habits user `id` leads.
    func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics>
    /// A profile image.
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String)
    /// Logs a habit upstream; afterwards the statistics must not be served from before the log.
    func log(_ habit: LoggedHabit) async throws
}
