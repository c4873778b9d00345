import DashboardCore
import HabitsAPI

/// What a person's page shows: the profile header, the habits they lead, then their other habits by category.
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct PersonDetailPage: Equatable, Sendable {
    /// The user's id.
    public var userID: String
    /// The dashboard link to this page.
    public var path: String
    /// The dashboard URL of the profile image.
    public var imagePath: String
    /// The user's name.
    public var name: String
    /// The user's biography; nil when they have none.
    public var bio: String?
    /// The user's colour (neutral when they have none).
    public var color: ColorStyle
    /// Whether the browser follows this user.
    public var isFollowed: Bool
    /// Whether this is the active user.
    public var isActiveUser: Bool
    /// The habits this user leads, sorted by name (the *Leading* section; empty when none).
    public var leading: [HabitCountRow]
    /// The user's other habits, one section per category sorted by name, habits sorted by name.
    public var categories: [Section]
    /// The user's total count over the last hour (the sparkline); nil before the history has it.
    public var trend: Trend?
    /// The range the chart shows (`?range=`; an hour by default).
    public var range: HistoryRange = .hour

    /// One category section of the user's other habits.
    public struct Section: Equatable, Sendable {
        /// The category name.
        public var title: String
        /// The category colour.
        public var color: ColorStyle
        /// The habits, sorted by name.
        public var habits: [HabitCountRow]
    }

    /// The heading of the leading section.
    public static let leadingTitle = "Leading"

    /// Builds the page for `userID`; nil when neither the users nor the statistics know them (a 404).
    ///
    /// `statistics` may hold other users too (e.g. all of `/userStats`); `leading` is `/userLeadingStats/<id>`,
    /// nil if it could not be fetched (then every habit is shown under its category).
    public init?(
        userID: String, users: [String: User], statistics: [UserStatistics], leading: UserStatistics?,
        settings: Settings, activeUserID: String = User.activeUserID
    ) {
        let userStatistics = statistics.first { $0.user.id == userID }
        guard let user = users[userID] ?? userStatistics?.user else { return nil }
        let led = leading.flatMap { $0.user.id == user.id ? $0.habitCounts : nil } ?? []
        self.init(
            user: user, habitCounts: userStatistics?.habitCounts ?? [], leading: led, settings: settings,
            activeUserID: activeUserID, order: .empty)
    }

    /// Builds the page for `userID` from a snapshot, whose rankings say which habits the user leads; nil when the
    /// snapshot does not know them (a 404). `trend` is their total's history.
    public init?(userID: String, snapshot: Snapshot, settings: Settings, trend: Trend? = nil) {
        let userStatistics = snapshot.userStatistics(of: userID)
        guard let user = snapshot.inputs.users[userID] ?? userStatistics?.user else { return nil }
        self.init(
            user: user, habitCounts: userStatistics?.habitCounts ?? [], leading: snapshot.leading[userID] ?? [],
            settings: settings, activeUserID: snapshot.activeUserID, order: snapshot.order)
        self.trend = trend
    }

    private init(
        user: User, habitCounts: [HabitCount], leading: [HabitCount], settings: Settings, activeUserID: String,
        order: NameOrderIndex
    ) {
        self.userID = user.id
        path = Links.person(user.id)
        imagePath = Links.image(user.id)
        name = user.name
        bio = user.bio
        color = ColorStyle(user.color)
        isFollowed = settings.isFollowed(user.id)
        isActiveUser = user.id == activeUserID

        var counts: [String: HabitCount] = [:]
        for habitCount in habitCounts where habitCount.count > 0 {
            counts[habitCount.habit.name] = counts[habitCount.habit.name] ?? habitCount
        }
        var leadingCounts: [String: HabitCount] = [:]
        for habitCount in leading {
            // The user's own statistics are the fresher count when both are present.
            leadingCounts[habitCount.habit.name] = counts[habitCount.habit.name] ?? habitCount
        }
        self.leading = leadingCounts.values.sorted { order.precedes($0.habit.name, $1.habit.name) }
            .map(HabitCountRow.init)
        var byCategory: [String: [HabitCount]] = [:]
        for habitCount in counts.values where leadingCounts[habitCount.habit.name] == nil {
            byCategory[habitCount.habit.category.name, default: []].append(habitCount)
        }
        categories = byCategory.keys.sorted { order.precedes($0, $1) }.map { name in
            let members = (byCategory[name] ?? []).sorted { order.precedes($0.habit.name, $1.habit.name) }
            return Section(
                title: name, color: ColorStyle(members[0].habit.category.color),
                habits: members.map(HabitCountRow.init))
        }
    }
}
