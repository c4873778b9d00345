import HabitsAPI

/// One Home leaderboard card: a favourite habit with its leader line and an optional second line.
public struct LeaderboardCard: Equatable, Sendable {
    /// The habit's name.
    public var habitName: String
    /// The dashboard link to the habit.
    public var habitPath: String
    /// The habit's category name.
    public var categoryName: String
    /// The category's colour.
    public var categoryColor: ColorStyle
    /// The leader line: the first ranked user, or `Nobody yet!`.
    public var leader: RankingLine
    /// The second line: You (when you logged it and are not the leader) or the next user; nil with fewer than two.
    public var second: RankingLine?

    /// Creates a card from parts.
    public init(
        habitName: String, categoryName: String, categoryColor: ColorStyle, leader: RankingLine, second: RankingLine?
    ) {
        self.habitName = habitName
        self.habitPath = Links.habit(habitName)
        self.categoryName = categoryName
        self.categoryColor = categoryColor
        self.leader = leader
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
        let leader: RankingLine
        let second: RankingLine?
        if let first = entries.first {
            leader = RankingLine(first)
            if entries.count < 2 {
                second = nil
            } else if let you = ranking.entry(for: activeUserID), you.user.id != first.user.id {
                second = RankingLine(you)
            } else {
                second = RankingLine(entries[1])
            }
        } else {
            leader = .nobodyYet
            second = nil
        }
        self.init(
            habitName: statistics.habit.name, categoryName: statistics.habit.category.name,
            categoryColor: ColorStyle(statistics.habit.category.color), leader: leader, second: second)
    }
}
