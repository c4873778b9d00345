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
    /// Your count and rank in each habit you logged, by habit name (issue 10: each button shows them).
    public var yours: [String: YourStanding]

    /// Your count in one habit and your competition rank among everyone who logged it.
    public struct YourStanding: Equatable, Sendable {
        /// Your count (> 0).
        public var count: Int
        /// Your 1-based competition rank.
        public var rank: Int

        /// Creates a standing.
        public init(count: Int, rank: Int) {
            self.count = count
            self.rank = rank
        }

        /// "you have 5, 2nd".
        public var text: String { "you have \(count), \(Ordinal.string(rank))" }
    }

    /// Builds the page from the upstream habits and the browser's settings.
    public init(
        habits: [String: Habit], settings: Settings, loggedHabitName: String? = nil,
        statistics: CombinedStatistics = CombinedStatistics(userStatistics: [], habitStatistics: [])
    ) {
        self.init(
            snapshot: Snapshot(inputs: SnapshotInputs(habits: habits, statistics: statistics)), settings: settings,
            loggedHabitName: loggedHabitName)
    }

    /// Builds the page from a snapshot's habits.
    public init(snapshot: Snapshot, settings: Settings, loggedHabitName: String? = nil) {
        let sections = HabitSection.sections(snapshot: snapshot, settings: settings)
        favorites = sections.first(where: \.isFavorites)?.habits ?? []
        categories = sections.filter { !$0.isFavorites }
        self.loggedHabitName = loggedHabitName
        var yours: [String: YourStanding] = [:]
        for (name, ranking) in snapshot.rankings {
            if let entry = ranking.entry(for: snapshot.activeUserID) {
                yours[name] = YourStanding(count: entry.count, rank: entry.rank)
            }
        }
        self.yours = yours
    }

    /// The confirmation line shown after logging, e.g. `Logged Yoga: you have 5, 2nd.`; nil when nothing was logged.
    public var confirmation: String? {
        loggedHabitName.map { name in "Logged \(name)" + (yours[name].map { ": " + $0.text } ?? "") + "." }
    }
}
