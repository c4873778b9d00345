import DashboardCore
import HabitsAPI

/// What a habit's page shows: its header, then its users grouped by tied counts, the top group being the Leaders.
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct HabitDetailPage: Equatable, Sendable {
    /// The habit's name.
    public var name: String
    /// The dashboard link to this page.
    public var path: String
    /// The habit's category name.
    public var categoryName: String
    /// The category's colour.
    public var categoryColor: ColorStyle
    /// The habit's description.
    public var info: String
    /// Whether the habit is one of the browser's favourites.
    public var isFavorite: Bool
    /// One group per distinct count > 0, highest first, the first being the Leaders: the page shown's part of them
    /// (a group cut by a page boundary shows on both pages, with its heading).
    public var groups: [CountGroup]
    /// How many people logged the habit, on every page.
    public var memberCount: Int
    /// Which page of the members `groups` holds (`?page=`); nil when the page asked for is past the last (a 404).
    public var pager: Pager?
    /// The habit's total count over the last hour (the sparkline); nil before the history has it.
    public var trend: Trend?
    /// The range the chart shows (`?range=`; an hour by default).
    public var range: HistoryRange = .hour

    /// Builds the page for `habitName`; nil when neither the habits nor the statistics know it (a 404).
    ///
    /// `statistics` may hold other habits too: only the one named `habitName` is used.
    public init?(
        habitName: String, habits: [String: Habit], statistics: [HabitStatistics], settings: Settings,
        activeUserID: String = User.activeUserID
    ) {
        let inputs = SnapshotInputs(
            habits: habits, statistics: CombinedStatistics(userStatistics: [], habitStatistics: statistics))
        self.init(
            habitName: habitName, snapshot: Snapshot(inputs: inputs, activeUserID: activeUserID), settings: settings)
    }

    /// Builds the page for `habitName` from a snapshot (its ranking computed, its count groups from it here) and the habit's
    /// trend from the history.
    /// `page` is the page of members shown, `pageSize` members each.
    public init?(
        habitName: String, snapshot: Snapshot, settings: Settings, trend: Trend? = nil, page: Int = 1,
        pageSize: Int = Pager.membersPerPage
    ) {
        guard let habit = snapshot.inputs.habits[habitName] ?? snapshot.habitStatistics[habitName]?.habit else {
            return nil
        }
        name = habit.name
        path = Links.habit(habit.name)
        categoryName = habit.category.name
        categoryColor = ColorStyle(habit.category.color)
        info = habit.info
        isFavorite = settings.isFavorite(habit.name)
        let all = snapshot.countGroups(of: habitName)
        memberCount = all.reduce(0) { $0 + $1.members.count }
        pager = Pager(number: page, total: memberCount, size: pageSize)
        groups = pager.map { Self.groups(all, on: $0) } ?? []
        self.trend = trend
    }

    /// The part of `groups` on `pager`'s page: each group's members within the page's range of all members.
    static func groups(_ groups: [CountGroup], on pager: Pager) -> [CountGroup] {
        guard pager.isPaged else { return groups }
        let range = pager.range
        var start = 0
        var shown: [CountGroup] = []
        for group in groups {
            let members = start..<(start + group.members.count)
            start = members.upperBound
            let overlap = members.clamped(to: range)
            guard !overlap.isEmpty else { continue }
            var part = group
            part.members = Array(
                group.members[(overlap.lowerBound - members.lowerBound)..<(overlap.upperBound - members.lowerBound)])
            shown.append(part)
        }
        return shown
    }
}
