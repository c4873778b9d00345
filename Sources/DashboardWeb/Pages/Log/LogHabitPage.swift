import DashboardCore
import HabitsAPI

/// What the Log Habit page offers: your favourites first, then every other habit grouped by category (SPEC §5), paged
/// as Habits is when there are more than `Pager.habitsPerPage` habits.
///
/// A pure function of its inputs: no I/O, no clock, no globals. Each habit becomes one form button.
public struct LogHabitPage: Equatable, Sendable {
    /// The favourite habits, sorted by name (empty when there are none).
    public var favorites: [HabitRow]
    /// The other habits, one section per category sorted by name, habits sorted by name.
    public var categories: [HabitSection]
    /// The habit just logged, for the confirmation after the redirect; nil when nothing was logged.
    public var loggedHabitName: String?
    /// Your count and rank in each habit you logged, by habit name (issue 10: each button shows them): the habits
    /// of the page shown and the one just logged.
    public var yours: [String: YourStanding]
    /// Which page of the habits is shown; nil when `page` was past the last (a 404).
    public var pager: Pager?

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
    /// `page` is the page of habits shown, `pageSize` habits a page.
    public init(
        snapshot: Snapshot, settings: Settings, loggedHabitName: String? = nil, previousCount: Int? = nil,
        page: Int = 1, pageSize: Int = Pager.habitsPerPage
    ) {
        let shown = HabitSection.sections(snapshot: snapshot, settings: settings, page: page, size: pageSize)
        let sections = shown?.sections ?? []
        pager = shown?.pager
        favorites = sections.first(where: \.isFavorites)?.habits ?? []
        categories = sections.filter { !$0.isFavorites }
        self.loggedHabitName = loggedHabitName
        // Only the habits shown (and the one just logged): looking You up in every ranking grew with all the data.
        var yours: [String: YourStanding] = [:]
        for name in sections.flatMap({ $0.habits.map(\.name) }) + [loggedHabitName].compactMap({ $0 }) {
            if let entry = snapshot.rankings[name]?.entry(for: snapshot.activeUserID) {
                yours[name] = YourStanding(count: entry.count, rank: entry.rank)
            }
        }
        self.yours = yours
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

    /// The confirmation line shown after logging, e.g. `Logged Yoga: you have 5, 2nd.`; nil when nothing was logged.
    public var confirmation: String? {
        loggedHabitName.map { name in "Logged \(name)" + (yours[name].map { ": " + $0.text } ?? "") + "." }
    }
}
