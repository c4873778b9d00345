import HabitsAPI

/// The upstream answers one snapshot is built from. Codable, so a snapshot can be written to disk and rebuilt from it
/// (issue 13): everything else in `Snapshot` is derived from these.
public struct SnapshotInputs: Codable, Sendable {
    /// `GET /users`.
    public var users: [String: User]
    /// `GET /habits`.
    public var habits: [String: Habit]
    /// `GET /categories`.
    public var categories: [Category]
    /// `GET /combinedStats`.
    public var statistics: CombinedStatistics

    /// Creates inputs.
    public init(
        users: [String: User] = [:], habits: [String: Habit] = [:], categories: [Category] = [],
        statistics: CombinedStatistics = CombinedStatistics(userStatistics: [], habitStatistics: [])
    ) {
        self.users = users
        self.habits = habits
        self.categories = categories
        self.statistics = statistics
    }
}
