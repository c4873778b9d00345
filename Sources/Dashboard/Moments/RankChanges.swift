/// Derives the `RankChange`s between two consecutive snapshots (issue 22 point 3): no extra upstream call, only the
/// rankings each snapshot already holds.
///
/// Rules, per habit present in both snapshots (a habit that appears or disappears, or is renamed, yields nothing):
/// - A person absent from a ranking has count 0 there (they had not logged it, or left the data). A person absent
///   from the newer ranking yields nothing (leaving is not passing).
/// - "passed you": they were behind or level with you (their count ≤ yours) and are now ahead (>), and you have
///   logged the habit (being passed in a habit you never did is noise).
/// - "you passed": you were behind or level with them and are now ahead, and they had logged it before.
/// - "new leader": every user ranked first now who was not ranked first before (ties at the top count each).
/// People are matched by id, so a renamed person keeps their changes, named as the newer snapshot names them.
enum RankChanges {
    /// The changes from `old` to `new`, seen at `second`, sorted by habit then person name.
    static func between(_ old: Snapshot, _ new: Snapshot, second: Int) -> [RankChange] {
        let you = new.activeUserID
        // A ranking the new snapshot kept from the old one has no changes (issue 21 point 2: a refresh's cost grows
        // with what changed, where comparing every habit's ranking was most of recording one).
        var changed: [(habit: String, before: Ranking, after: Ranking)] = []
        for (habit, after) in new.rankings {
            guard let before = old.rankings[habit], !before.isSameRanking(as: after) else { continue }
            changed.append((habit, before, after))
        }
        changed.sort { $0.habit < $1.habit }
        var changes: [RankChange] = []
        for (habit, before, after) in changed {
            changes += between(before, after, habit: habit, you: you, second: second)
        }
        return changes
    }

    /// The changes within one habit's two rankings.
    static func between(_ before: Ranking, _ after: Ranking, habit: String, you: String, second: Int) -> [RankChange] {
        let old = Dictionary(before.entries.map { ($0.user.id, $0.count) }) { first, _ in first }
        let yourOld = old[you] ?? 0
        let yourEntry = after.entry(for: you)
        let yourNew = yourEntry?.count ?? 0
        var changes: [RankChange] = []
        for entry in after.entries where entry.user.id != you {
            let theirOld = old[entry.user.id] ?? 0
            let theirNew = entry.count
            if yourNew > 0, theirOld <= yourOld, theirNew > yourNew {
                changes.append(change(.passedYou, habit, entry, yourEntry?.rank, second))
            } else if theirOld > 0, yourOld <= theirOld, yourNew > theirNew {
                changes.append(change(.youPassed, habit, entry, yourEntry?.rank, second))
            }
        }
        let oldLeaders = Set(before.entries.prefix { $0.rank == 1 }.map(\.user.id))
        for entry in after.entries.prefix(while: { $0.rank == 1 }) where !oldLeaders.contains(entry.user.id) {
            changes.append(change(.newLeader, habit, entry, yourEntry?.rank, second))
        }
        return changes
    }

    private static func change(
        _ kind: RankChange.Kind, _ habit: String, _ entry: Ranking.Entry, _ yourRank: Int?, _ second: Int
    ) -> RankChange {
        RankChange(
            kind: kind, habit: habit, userID: entry.user.id, userName: entry.isActiveUser ? "You" : entry.user.name,
            yourRank: yourRank, second: second)
    }
}
