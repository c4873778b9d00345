import HabitsAPI

/// The facts Home needs to word a followed user's message: the snapshot's rankings and the browser's favourites.
///
/// Rankings come from the habit statistics, the authority on ranks; the snapshot also ranks each habit from the user
/// statistics, for when the two responses disagree (an upstream may build them at different instants).
struct FollowingContext {
    private let snapshot: Snapshot
    private let favorites: Set<String>
    /// The habits the active user logged, once for every row (a set per row was the largest part of Home's view).
    private let mine: Set<String>

    init(snapshot: Snapshot, settings: Settings) {
        self.snapshot = snapshot
        self.favorites = Set(settings.favoriteHabits)
        mine = snapshot.loggedHabits(of: snapshot.activeUserID)
    }

    private var activeUserID: String { snapshot.activeUserID }

    /// The row for `user`, with the first message of SPEC §5 whose condition holds.
    func row(for user: User) -> FollowingRow {
        let theirs = snapshot.loggedHabits(of: user.id)
        let common = theirs.intersection(mine)
        let favoriteCommon = common.intersection(favorites)
        if let habit = first(favoriteCommon.isEmpty ? common : favoriteCommon),
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
        if let habit = first(theirs), let ranks = ranks(of: [user.id], in: habit) {
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
        if let ranking = snapshot.rankings[habit] {
            let ranks = userIDs.compactMap { ranking.entry(for: $0)?.rank }
            if ranks.count == userIDs.count { return ranks }
        }
        let fallback = snapshot.fallbackRanking(of: habit)
        let ranks = userIDs.compactMap { fallback.entry(for: $0)?.rank }
        return ranks.count == userIDs.count ? ranks : nil
    }

    /// The alphabetically first name (in the shared name order).
    private func first(_ names: Set<String>) -> String? {
        names.min { snapshot.order.precedes($0, $1) }
    }
}
