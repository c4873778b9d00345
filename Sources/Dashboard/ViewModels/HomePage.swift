import HabitsAPI

/// What the Home page shows: a leaderboard card per favourite habit and a row per followed user (SPEC §5).
///
/// A pure function of its inputs: no I/O, no clock, no globals. Favourites and follows that no longer exist
/// upstream are skipped, not removed from the settings.
public struct HomePage: Equatable, Sendable {
    /// One leaderboard card.
    public var leaderboard: [LeaderboardCard]
    /// One row per followed user who still exists, sorted by name.
    public var following: [FollowingRow]

    /// True when both sections are empty: the page then explains how to favourite habits and follow people.
    public var showsIntroduction: Bool { leaderboard.isEmpty && following.isEmpty }

    /// Builds the page from the combined statistics, the users, the browser's settings and the active user's id.
    public init(
        statistics: CombinedStatistics, users: [String: User], settings: Settings,
        activeUserID: String = User.activeUserID
    ) {
        leaderboard = Self.leaderboard(statistics: statistics, settings: settings, activeUserID: activeUserID)
        following = Self.following(
            statistics: statistics, users: users, settings: settings, activeUserID: activeUserID)
    }

    /// Creates a page from ready-made parts (for templates' tests).
    public init(leaderboard: [LeaderboardCard], following: [FollowingRow]) {
        self.leaderboard = leaderboard
        self.following = following
    }

    // MARK: - Leaderboard

    /// The text shown when a favourite habit has no counts yet.
    public static let nobodyYet = "Nobody yet!"

    private static func leaderboard(statistics: CombinedStatistics, settings: Settings, activeUserID: String)
        -> [LeaderboardCard]
    {
        let favorites = Set(settings.favoriteHabits)
        var seen = Set<String>()
        let habitStatistics = statistics.habitStatistics.filter {
            favorites.contains($0.habit.name) && seen.insert($0.habit.name).inserted
        }
        return
            habitStatistics
            .sorted { NameOrder.precedes($0.habit.name, $1.habit.name) }
            .map { LeaderboardCard(statistics: $0, activeUserID: activeUserID) }
    }

    // MARK: - Following

    private static func following(
        statistics: CombinedStatistics, users: [String: User], settings: Settings, activeUserID: String
    ) -> [FollowingRow] {
        var seen = Set<String>()
        let followed = settings.followedUserIDs.compactMap { id -> User? in
            guard seen.insert(id).inserted else { return nil }
            return users[id]
        }
        let context = FollowingContext(statistics: statistics, settings: settings, activeUserID: activeUserID)
        return
            followed
            .sorted { NameOrder.precedes($0.name, $1.name, lhsKey: $0.id, rhsKey: $1.id) }
            .map { context.row(for: $0) }
    }
}
