import HabitsAPI

/// The facts Home needs to word a followed user's message, computed once per page.
struct FollowingContext {
    /// Habits each user logged (count > 0), by user id.
    private let loggedHabits: [String: Set<String>]
    /// Per-habit rankings from the habit statistics: the authority on ranks.
    private let rankings: [String: Ranking]
    /// Per-habit rankings rebuilt from the user statistics, for when the two responses disagree (they are fetched
    /// together but an upstream may build them at different instants).
    private let fallbackRankings: [String: Ranking]
    private let favorites: Set<String>
    private let activeUserID: String

    init(statistics: CombinedStatistics, settings: Settings, activeUserID: String) {
        var logged: [String: Set<String>] = [:]
        var countsByHabit: [String: [UserCount]] = [:]
        for userStatistics in statistics.userStatistics {
            for habitCount in userStatistics.habitCounts where habitCount.count > 0 {
                logged[userStatistics.user.id, default: []].insert(habitCount.habit.name)
                countsByHabit[habitCount.habit.name, default: []].append(
                    UserCount(user: userStatistics.user, count: habitCount.count))
            }
        }
        var fallback: [String: Ranking] = [:]
        for (habit, counts) in countsByHabit {
            fallback[habit] = Ranking(userCounts: counts, activeUserID: activeUserID)
        }
        var rankings: [String: Ranking] = [:]
        for habitStatistics in statistics.habitStatistics {
            rankings[habitStatistics.habit.name] = Ranking(
                userCounts: habitStatistics.userCounts, activeUserID: activeUserID)
        }
        self.loggedHabits = logged
        self.rankings = rankings
        self.fallbackRankings = fallback
        self.favorites = Set(settings.favoriteHabits)
        self.activeUserID = activeUserID
    }

    /// The row for `user`, with the first message of SPEC §5 whose condition holds.
    func row(for user: User) -> FollowingRow {
        let theirs = loggedHabits[user.id] ?? []
        let mine = loggedHabits[activeUserID] ?? []
        let common = theirs.intersection(mine)
        let favoriteCommon = common.intersection(favorites)
        if let habit = Self.first(favoriteCommon.isEmpty ? common : favoriteCommon),
            let ranks = ranks(of: [user.id, activeUserID], in: habit)
        {
            let (theirRank, myRank) = (ranks[0], ranks[1])
            let they = Ordinal.string(theirRank)
            let you = Ordinal.string(myRank)
            if theirRank > myRank {
                return FollowingRow(
                    user: user, messagePrefix: "Currently \(they), behind you (\(you)) in ", habitName: habit,
                    messageSuffix: ". Send them a friendly reminder!")
            } else if theirRank < myRank {
                return FollowingRow(
                    user: user, messagePrefix: "Currently \(they), ahead of you (\(you)) in ", habitName: habit,
                    messageSuffix: ". You might catch up with a little extra effort!")
            } else {
                return FollowingRow(
                    user: user, messagePrefix: "You're tied at \(they) in ", habitName: habit,
                    messageSuffix: "! Now's your chance to pull ahead.")
            }
        }
        if let habit = Self.first(theirs), let ranks = ranks(of: [user.id], in: habit) {
            return FollowingRow(
                user: user, messagePrefix: "Currently \(Ordinal.string(ranks[0])) in ", habitName: habit,
                messageSuffix: ". Maybe you should give this habit a look.")
        }
        return FollowingRow(
            user: user, messagePrefix: FollowingRow.nothingYetMessage, habitName: nil, messageSuffix: "")
    }

    /// The ranks of `userIDs` in `habit`, all from one ranking: the habit statistics if they hold every user,
    /// else the user statistics.
    private func ranks(of userIDs: [String], in habit: String) -> [Int]? {
        for ranking in [rankings[habit], fallbackRankings[habit]] {
            guard let ranking else { continue }
            let ranks = userIDs.compactMap { ranking.entry(for: $0)?.rank }
            if ranks.count == userIDs.count { return ranks }
        }
        return nil
    }

    /// The alphabetically first name (in the shared name order).
    private static func first(_ names: Set<String>) -> String? {
        names.min { NameOrder.precedes($0, $1) }
    }
}
