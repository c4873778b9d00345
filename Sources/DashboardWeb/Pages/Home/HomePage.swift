import DashboardCore
import Foundation
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

    /// What is happening now, shown with the introduction (nil when the page has no data to show it from).
    public var happening: HappeningNow?

    /// True when both sections are empty: the page then explains how to favourite habits and follow people.
    public var showsIntroduction: Bool { leaderboard.isEmpty && following.isEmpty }

    /// Builds the page from the combined statistics, the users, the browser's settings and the active user's id.
    public init(
        statistics: CombinedStatistics, users: [String: User], settings: Settings,
        activeUserID: String = User.activeUserID
    ) {
        self.init(
            snapshot: Snapshot(
                inputs: SnapshotInputs(users: users, statistics: statistics), activeUserID: activeUserID),
            settings: settings)
    }

    /// Builds the page from a snapshot and the browser's settings.
    public init(snapshot: Snapshot, settings: Settings) {
        leaderboard = Self.leaderboard(snapshot: snapshot, settings: settings)
        following = Self.following(snapshot: snapshot, settings: settings)
    }

    /// Builds the page with "Happening now" for the introduction: growth since `baseline` (or totals without one),
    /// each leaderboard card's sparkline from `habitTrend`, and from `moments` the latest change of each card's
    /// lead (when its person still leads the card, issue 47 point 1) and between each followed person and the active
    /// user within the day.
    init(
        snapshot: Snapshot, settings: Settings, baseline: @autoclosure () -> ActivityHistory.Point?, now: Date,
        habitTrend: (String) -> Trend? = { _ in nil }, moments: MomentLog = MomentLog()
    ) {
        self.init(snapshot: snapshot, settings: settings)
        let leaders = MomentLog.leaders(in: snapshot)
        leaderboard = leaderboard.map {
            Self.decorated($0, now: now, habitTrend: habitTrend, moments: moments, leaders: leaders)
        }
        addMoments(now: now, moments: moments)
        if showsIntroduction {
            happening = HappeningNow(snapshot: snapshot, settings: settings, baseline: baseline(), now: now)
        }
    }

    /// `card` with its sparkline from `habitTrend` and, from `moments`, the latest change of its lead within the day
    /// (when its person still leads, by `leaders`), as of `now`.
    static func decorated(
        _ card: LeaderboardCard, now: Date, habitTrend: (String) -> Trend?, moments: MomentLog,
        leaders: (String) -> [String]
    ) -> LeaderboardCard {
        let second = ActivityHistory.second(now)
        var card = card
        card.trend = habitTrend(card.habitName)
        card.leaderChange = moments.latestLeader(in: card.habitName, notBefore: second - 86_400)
            .flatMap { moments.line($0, leaders: leaders, now: second, inHabit: false) }
        return card
    }

    /// Adds to each Following row, from `moments`, the latest moment between its person and the active user within
    /// the day, as of `now`.
    mutating func addMoments(now: Date, moments: MomentLog) {
        for index in following.indices {
            following[index].moment = Self.moment(of: following[index].userID, now: now, moments: moments)
        }
    }

    /// From `moments`, the latest moment between `userID` and the active user within the day, as of `now`.
    static func moment(of userID: String, now: Date, moments: MomentLog) -> MomentLine? {
        let second = ActivityHistory.second(now)
        return moments.latest(between: userID, notBefore: second - 86_400).map { MomentLine($0, now: second) }
    }

    /// Creates a page from ready-made parts (for templates' tests).
    public init(leaderboard: [LeaderboardCard], following: [FollowingRow]) {
        self.leaderboard = leaderboard
        self.following = following
    }

    // MARK: - Leaderboard

    /// The text shown when a favourite habit has no counts yet.
    public static let nobodyYet = RankingLine.nobodyYetText

    private static func leaderboard(snapshot: Snapshot, settings: Settings) -> [LeaderboardCard] {
        leaderboardHabits(snapshot: snapshot, settings: settings).compactMap { snapshot.leaderboardCards[$0] }
    }

    /// The favourites that have a card, in the name order, each once: the habits of the leaderboard's cards.
    static func leaderboardHabits(snapshot: Snapshot, settings: Settings) -> [String] {
        // Sorted by name, a favourite listed twice (settings files are not trusted to be unique) is next to itself and
        // dropped, with no set built for it.
        let habits = settings.favoriteHabits.filter { snapshot.leaderboardCards[$0] != nil }
            .sorted { snapshot.order.precedes($0, $1) }
        return habits.enumerated().compactMap { index, habit in
            index > 0 && habits[index - 1] == habit ? nil : habit
        }
    }

    // MARK: - Following

    private static func following(snapshot: Snapshot, settings: Settings) -> [FollowingRow] {
        let context = FollowingContext(snapshot: snapshot, settings: settings)
        return followedPlaces(snapshot: snapshot, settings: settings).map { context.row(for: snapshot.sortedUsers[$0]) }
    }

    /// The places in `snapshot.sortedUsers` of the followed users who still exist, in order, each once: the people
    /// of the Following rows.
    static func followedPlaces(snapshot: Snapshot, settings: Settings) -> [Int] {
        // Sorted by place, an id listed twice is next to itself and dropped, with no set built for it.
        let places = settings.followedUserIDs.compactMap { snapshot.userPlace[$0] }.sorted()
        return places.enumerated().compactMap { index, place in
            index > 0 && places[index - 1] == place ? nil : place
        }
    }
}
