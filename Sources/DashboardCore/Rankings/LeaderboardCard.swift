import HabitsAPI

/// One Home leaderboard card: a favourite habit with its leader line and an optional second line.
public struct LeaderboardCard: Hashable, Sendable {
    /// The habit's name.
    public var habitName: String
    /// The dashboard link to the habit.
    public var habitPath: String
    /// The habit's category name.
    public var categoryName: String
    /// The category's colour.
    public var categoryColor: ColorStyle
    /// The leader line: every user tied at the top ("Amy and Bob 5"; "A, B and C 5"), or `Nobody yet!`. Its
    /// user fields are the first leader's.
    public var leader: RankingLine
    /// Every user tied at the top, in rank order (one line each); empty when nobody logged the habit.
    public var leaders: [RankingLine]
    /// The second line: You (when you logged it and are not the leader) or the next user; nil with fewer than two.
    public var second: RankingLine?
    /// The habit's total count over the last hour (the sparkline); set by `HomePage`, nil before the history has it.
    public var trend: Trend?
    /// When the habit's lead last changed within the day ("Cy Young took the lead · 4 min ago", "… tied Ada for the
    /// lead", "… took back the lead"), while its person still leads the card; set by `HomePage` for favourites
    /// (issue 22 point 3, issue 47 point 1).
    public var leaderChange: MomentLine?

    /// Creates a card from parts.
    public init(
        habitName: String, categoryName: String, categoryColor: ColorStyle, leader: RankingLine, second: RankingLine?,
        leaders: [RankingLine]? = nil
    ) {
        self.habitName = habitName
        self.habitPath = Links.habit(habitName)
        self.categoryName = categoryName
        self.categoryColor = categoryColor
        self.leader = leader
        self.leaders = leaders ?? (leader.userID == nil ? [] : [leader])
        self.second = second
    }

    /// Ranks the habit's users and picks the two lines (SPEC §5, Home).
    public init(statistics: HabitStatistics, activeUserID: String) {
        self.init(
            statistics: statistics, ranking: Ranking(userCounts: statistics.userCounts, activeUserID: activeUserID),
            activeUserID: activeUserID)
    }

    /// The card for `statistics`, whose users `ranking` already ranks.
    init(statistics: HabitStatistics, ranking: Ranking, activeUserID: String) {
        let entries = ranking.entries
        let tied = ranking.leaders.map(RankingLine.init)
        let leader = tied.isEmpty ? RankingLine.nobodyYet : Self.combined(tied)
        let second: RankingLine?
        if let you = ranking.entry(for: activeUserID), you.rank != 1 {
            second = RankingLine(you)
        } else if entries.count > tied.count, !tied.isEmpty {
            second = RankingLine(entries[tied.count])
        } else {
            second = nil
        }
        self.init(
            habitName: statistics.habit.name, categoryName: statistics.habit.category.name,
            categoryColor: ColorStyle(statistics.habit.category.color), leader: leader, second: second,
            leaders: tied)
    }

    /// One line naming every tied leader: "Amy 5", "Amy and Bob 5", "Amy, Bob and Cy 5"; "(1st)" follows the count
    /// when You are among them, as on You's own line.
    static func combined(_ tied: [RankingLine]) -> RankingLine {
        var line = tied[0]
        guard tied.count > 1 else { return line }
        let list = RankChange.list(tied.map(\.name))
        let you = tied.first(where: \.isActiveUser)
        line.text = list + " \(line.count ?? 0)" + (you.map { " (\(Ordinal.string($0.rank ?? 1)))" } ?? "")
        line.name = list
        line.isActiveUser = you != nil
        return line
    }

    /// The separator shown before the leader at `index` of `count`: "", ", " or " and ".
    public static func separator(before index: Int, of count: Int) -> String {
        index == 0 ? "" : index == count - 1 ? " and " : ", "
    }
}
