import DashboardCore
import HabitsAPI

/// The facts Home needs to word a followed user's message: the snapshot's rankings and the browser's favourites.
///
/// Rankings come from the habit statistics, the authority on ranks; the snapshot also ranks each habit from the user
/// statistics, for when the two responses disagree (an upstream may build them at different instants).
struct FollowingContext {
    private let snapshot: Snapshot
    private let favorites: Set<String>

    init(snapshot: Snapshot, settings: Settings) {
        self.snapshot = snapshot
        self.favorites = Set(settings.favoriteHabits)
    }

    private var activeUserID: String { snapshot.activeUserID }

    /// The row for `user`, with the first message of SPEC §5 whose condition holds.
    ///
    /// One pass over the user's counts finds the first of the habits you share and of the shared favourites, each
    /// shared habit's place in the name order given by the same look-up that finds it among yours
    /// (`Snapshot.activeUserHabits`); the first of all the habits they logged, which needs every habit's place, only
    /// when they share none (building their set and two intersections, then comparing names by two look-ups each,
    /// was half of Home's view: issue 21).
    func row(for user: User) -> FollowingRow {
        var common = Earliest(order: snapshot.order)
        var favoriteCommon = Earliest(order: snapshot.order)
        let counts = snapshot.userStatistics(of: user.id)?.habitCounts ?? []
        for count in counts where count.count > 0 {
            let habit = count.habit.name
            guard let place = snapshot.activeUserHabits[habit] else { continue }
            common.offer(habit, place: place)
            if favorites.contains(habit) { favoriteCommon.offer(habit, place: place) }
        }
        if let habit = favoriteCommon.name ?? common.name, let ranks = ranks(of: [user.id, activeUserID], in: habit) {
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
        var theirs = Earliest(order: snapshot.order)
        for count in counts where count.count > 0 {
            theirs.offer(count.habit.name, place: snapshot.order.place(count.habit.name))
        }
        if let habit = theirs.name, let ranks = ranks(of: [user.id], in: habit) {
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
}

/// The alphabetically first of the names offered, in the shared name order (`NameOrderIndex.precedes`, with each
/// name's place given once rather than looked up per comparison).
private struct Earliest {
    let order: NameOrderIndex
    /// The first so far; nil until a name is offered.
    private(set) var name: String?
    private var place: Int?

    init(order: NameOrderIndex) { self.order = order }

    /// Keeps `candidate` (whose place is `candidatePlace`) when it sorts before the first so far.
    mutating func offer(_ candidate: String, place candidatePlace: Int?) {
        if let name {
            let earlier =
                if let place, let candidatePlace { candidatePlace < place } else { order.precedes(candidate, name) }
            guard earlier else { return }
        }
        name = candidate
        place = candidatePlace
    }
}
