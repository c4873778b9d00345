/// Derives the `RankChange`s between two consecutive snapshots (issue 22 point 3): no extra upstream call, only the
/// rankings each snapshot already holds.
///
/// Rules, per habit present in both snapshots (a habit that appears or disappears, or is renamed, yields nothing):
/// - A person absent from a ranking has count 0 there (they had not logged it, or left the data). A person absent
///   from the newer ranking yields nothing (leaving is not passing).
/// - "passed you": they were behind or level with you (their count ≤ yours) and are now ahead (>), and you have
///   logged the habit (being passed in a habit you never did is noise).
/// - "you passed": you were behind or level with them and are now ahead, and they had logged it before.
/// - The lead (issue 47 point 1), from who is ranked first before and now:
///   - "tied for the lead": each person ranked first now, with others, who was not ranked first before.
///   - "took the lead": the only person ranked first now, who was not before or shared it before.
///   - "took back the lead": the same, for a person who had led the habit before (`ledBefore`: the moment log knows
///     them as a leader in it).
///   A leader who stays at the top, alone or tied, changes nothing.
/// People are matched by id, so a renamed person keeps their changes, named as the newer snapshot names them.
enum RankChanges {
    /// The changes from `old` to `new`, seen at `second`, sorted by habit then person name. `ledBefore(habit, id)`
    /// says whether the person led the habit before (`MomentLog.hasLed`).
    static func between(
        _ old: Snapshot, _ new: Snapshot, second: Int, ledBefore: (String, String) -> Bool = { _, _ in false }
    ) -> [RankChange] {
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
            changes += between(before, after, habit: habit, you: you, second: second) { ledBefore(habit, $0) }
        }
        return changes
    }

    /// The changes within one habit's two rankings.
    static func between(
        _ before: Ranking, _ after: Ranking, habit: String, you: String, second: Int,
        ledBefore: (String) -> Bool = { _ in false }
    ) -> [RankChange] {
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
        let oldLeaders = before.leaders
        let newLeaders = after.leaders
        let wasLeader = { (entry: Ranking.Entry) in oldLeaders.contains { $0.user.id == entry.user.id } }
        if newLeaders.count == 1, let leader = newLeaders.first, !wasLeader(leader) || oldLeaders.count > 1 {
            // Only a leader who led alone is named: the log then knows they led (`MomentLog.hasLed`).
            let passed = oldLeaders.count == 1 ? oldLeaders.filter { $0.user.id != leader.user.id }.map(person) : []
            let kind: RankChange.Kind = ledBefore(leader.user.id) ? .tookLeadBack : .newLeader
            changes.append(change(kind, habit, leader, yourEntry?.rank, second, others: passed))
        } else if newLeaders.count > 1 {
            for entry in newLeaders where !wasLeader(entry) {
                // Those already at the top first: "Cy tied Amy" says whom Cy caught up with.
                let others = newLeaders.filter { $0.user.id != entry.user.id }
                let tied = others.filter(wasLeader) + others.filter { !wasLeader($0) }
                changes.append(change(.tiedLead, habit, entry, yourEntry?.rank, second, others: tied.map(person)))
            }
        }
        return changes
    }

    /// `entry` as a lead change names someone besides its subject ("you" for the active user).
    private static func person(_ entry: Ranking.Entry) -> RankChange.Person {
        RankChange.Person(id: entry.user.id, name: entry.isActiveUser ? "you" : entry.user.name)
    }

    private static func change(
        _ kind: RankChange.Kind, _ habit: String, _ entry: Ranking.Entry, _ yourRank: Int?, _ second: Int,
        others: [RankChange.Person] = []
    ) -> RankChange {
        RankChange(
            kind: kind, habit: habit, userID: entry.user.id, userName: entry.isActiveUser ? "You" : entry.user.name,
            yourRank: yourRank, second: second, others: others)
    }
}
