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

    /// The people the log took you past, in rank order (issue 22 point 3); empty when none or nothing was logged.
    public var passed: [String] = []

    /// Builds the page from a snapshot's habits; `previousCount` is your count in the logged habit before the log
    /// (from the redirect), so the confirmation can name everyone you passed: each person whose count is now below
    /// yours and was at or above it before. A `previousCount` that is not below your count now is ignored.
    public init(snapshot: Snapshot, settings: Settings, loggedHabitName: String? = nil, previousCount: Int? = nil) {
        self.init(snapshot: snapshot, settings: settings, loggedHabitName: loggedHabitName)
        guard let name = loggedHabitName, let before = previousCount, before >= 0,
            let ranking = snapshot.rankings[name], let you = ranking.entry(for: snapshot.activeUserID),
            before < you.count
        else { return }
        passed = ranking.entries.filter { !$0.isActiveUser && $0.count >= before && $0.count < you.count }.map(\.name)
    }

    /// "You passed Ada Lovelace — now 2nd in Yoga." (several: "Ada Lovelace, Cy Young and Dee"; more than five end
    /// with "and N more"); nil when the log passed nobody.
    public var passedText: String? {
        guard let name = loggedHabitName, !passed.isEmpty, let rank = yours[name]?.rank else { return nil }
        let shown = passed.count > 5 ? Array(passed.prefix(4)) + ["\(passed.count - 4) more"] : passed
        let list = shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
        return "You passed \(list) — now \(Ordinal.string(rank)) in \(name)."
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
