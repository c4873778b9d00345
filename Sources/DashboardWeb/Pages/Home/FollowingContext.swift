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

    /// The habits `user` shares with the active user (both have counted them) that a row's message may name: the
    /// first of them in the name order, and the first of those that are also the browser's favourites. Only the
    /// second depends on the browser, so a row is the same for every browser with the same `favorite` (Home keeps
    /// rows by it, issue 46 point 1).
    ///
    /// One pass over the user's counts, each shared habit's place in the name order given by the same look-up that
    /// finds it among yours (`Snapshot.activeUserHabits`); building their set and two intersections, then comparing
    /// names by two look-ups each, was half of Home's view (issue 21).
    func sharedHabits(of user: User) -> SharedHabits {
        var common = Earliest(order: snapshot.order)
        var favoriteCommon = Earliest(order: snapshot.order)
        for count in snapshot.userStatistics(of: user.id)?.habitCounts ?? [] where count.count > 0 {
            let habit = count.habit.name
            guard let place = snapshot.activeUserHabits[habit] else { continue }
            common.offer(habit, place: place)
            if favorites.contains(habit) { favoriteCommon.offer(habit, place: place) }
        }
        return SharedHabits(first: common.name, favorite: favoriteCommon.name)
    }

    /// The row for `user`, with the first message of SPEC §5 whose condition holds.
    func row(for user: User) -> FollowingRow { row(for: user, sharing: sharedHabits(of: user)) }

    /// The row for `user`, who shares `shared` (from `sharedHabits(of:)`): the first message of SPEC §5 whose
    /// condition holds; the first of all the habits they logged, which needs every habit's place, only when they share
    /// none.
    func row(for user: User, sharing shared: SharedHabits) -> FollowingRow {
        if let habit = shared.favorite ?? shared.first, let ranks = ranks(of: [user.id, activeUserID], in: habit) {
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
        for count in snapshot.userStatistics(of: user.id)?.habitCounts ?? [] where count.count > 0 {
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

/// The habits a followed user shares with the active user that their row's message may name.
struct SharedHabits: Hashable, Sendable {
    /// The first of the habits both have counted, in the name order.
    var first: String?
    /// The first of those that are the browser's favourites.
    var favorite: String?
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
