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
    /// One group per distinct count > 0, highest first; the first group is the Leaders.
    public var groups: [CountGroup]
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

    /// Builds the page for `habitName` from a snapshot, whose count groups are already computed, and the habit's
    /// trend from the history.
    public init?(habitName: String, snapshot: Snapshot, settings: Settings, trend: Trend? = nil) {
        guard let habit = snapshot.inputs.habits[habitName] ?? snapshot.habitStatistics[habitName]?.habit else {
            return nil
        }
        name = habit.name
        path = Links.habit(habit.name)
        categoryName = habit.category.name
        categoryColor = ColorStyle(habit.category.color)
        info = habit.info
        isFavorite = settings.isFavorite(habit.name)
        groups = snapshot.countGroups[habitName] ?? []
        self.trend = trend
    }
}
