import HabitsAPI

/// What the Log Habit page offers: your favourites first, then every other habit grouped by category (SPEC §5).
///
/// A pure function of its inputs: no I/O, no clock, no globals. Each habit becomes one form button.
public struct LogHabitPage: Equatable, Sendable {
    /// The favourite habits, sorted by name (empty when there are none).
    public var favorites: [HabitRow]
    /// The other habits, one section per category sorted by name, habits sorted by name.
    public var categories: [HabitSection]
    /// The habit just logged, for the confirmation after the redirect; nil when nothing was logged.
    public var loggedHabitName: String?

    /// Builds the page from the upstream habits and the browser's settings.
    public init(habits: [String: Habit], settings: Settings, loggedHabitName: String? = nil) {
        self.init(
            snapshot: Snapshot(inputs: SnapshotInputs(habits: habits)), settings: settings,
            loggedHabitName: loggedHabitName)
    }

    /// Builds the page from a snapshot's habits.
    public init(snapshot: Snapshot, settings: Settings, loggedHabitName: String? = nil) {
        let sections = HabitSection.sections(snapshot: snapshot, settings: settings)
        favorites = sections.first(where: \.isFavorites)?.habits ?? []
        categories = sections.filter { !$0.isFavorites }
        self.loggedHabitName = loggedHabitName
    }

    /// The confirmation line shown after logging, e.g. `Logged Yoga.`; nil when nothing was logged.
    public var confirmation: String? { loggedHabitName.map { "Logged \($0)." } }
}
