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
    /// leader and between each followed person and the active user within the day.
    init(
        snapshot: Snapshot, settings: Settings, baseline: ActivityHistory.Point?, now: Date,
        habitTrend: (String) -> Trend? = { _ in nil }, moments: MomentLog = MomentLog()
    ) {
        self.init(snapshot: snapshot, settings: settings)
        let second = ActivityHistory.second(now)
        let dayAgo = second - 86_400
        for index in leaderboard.indices {
            leaderboard[index].trend = habitTrend(leaderboard[index].habitName)
            leaderboard[index].leaderChange = moments.latestLeader(in: leaderboard[index].habitName, notBefore: dayAgo)
                .map { MomentLine($0, now: second, inHabit: false) }
        }
        for index in following.indices {
            following[index].moment = moments.latest(between: following[index].userID, notBefore: dayAgo)
                .map { MomentLine($0, now: second) }
        }
        if showsIntroduction {
            happening = HappeningNow(snapshot: snapshot, settings: settings, baseline: baseline, now: now)
        }
    }

    /// Creates a page from ready-made parts (for templates' tests).
    public init(leaderboard: [LeaderboardCard], following: [FollowingRow]) {
        self.leaderboard = leaderboard
        self.following = following
    }

    // MARK: - Leaderboard

    /// The text shown when a favourite habit has no counts yet.
    public static let nobodyYet = "Nobody yet!"

    private static func leaderboard(snapshot: Snapshot, settings: Settings) -> [LeaderboardCard] {
        // Each favourite's place in the name order is looked up once; sorted by it, a name listed twice (settings
        // files are not trusted to be unique) is next to itself and dropped, with no set built for it.
        var placed: [(place: Int, card: LeaderboardCard)] = []
        placed.reserveCapacity(settings.favoriteHabits.count)
        for name in settings.favoriteHabits {
            guard let card = snapshot.leaderboardCards[name] else { continue }
            guard let place = snapshot.order.place(name) else {
                return Self.leaderboardOutsideTheOrder(snapshot: snapshot, settings: settings)
            }
            placed.append((place, card))
        }
        placed.sort { $0.place < $1.place }
        var cards: [LeaderboardCard] = []
        cards.reserveCapacity(placed.count)
        for (index, item) in placed.enumerated() where index == 0 || placed[index - 1].place != item.place {
            cards.append(item.card)
        }
        return cards
    }

    /// The leaderboard when a favourite has a card but no place in the snapshot's name order (its statistics name a
    /// habit `/habits` does not list): compared name by name.
    private static func leaderboardOutsideTheOrder(snapshot: Snapshot, settings: Settings) -> [LeaderboardCard] {
        var seen = Set<String>()
        let cards = settings.favoriteHabits.compactMap { name -> LeaderboardCard? in
            guard seen.insert(name).inserted else { return nil }
            return snapshot.leaderboardCards[name]
        }
        return cards.sorted { snapshot.order.precedes($0.habitName, $1.habitName) }
    }

    // MARK: - Following

    private static func following(snapshot: Snapshot, settings: Settings) -> [FollowingRow] {
        // Sorted by place, an id listed twice is next to itself and dropped, with no set built for it.
        let places = settings.followedUserIDs.compactMap { snapshot.userPlace[$0] }.sorted()
        let context = FollowingContext(snapshot: snapshot, settings: settings)
        return places.enumerated().compactMap { index, place in
            index > 0 && places[index - 1] == place ? nil : context.row(for: snapshot.sortedUsers[place])
        }
    }
}
