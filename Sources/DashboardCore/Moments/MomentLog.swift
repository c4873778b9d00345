/// The recent `RankChange`s, newest last, bounded in age and count (issue 22 point 3): what Home's Following rows, the
/// leaderboard cards, the live notices and "since your last visit" read.
///
/// A pure value. It keeps the last `maxAge` seconds (a day: the rows say "the latest within the day", and "since your
/// last visit" looks back no further than the history's own summary) and at most `capacity` changes (2,000 of about
/// 80 bytes: ~160 KB at most; the oldest go first).
public struct MomentLog: Equatable, Sendable {
    /// The changes, oldest first.
    private(set) var changes: [RankChange] = []
    /// Changes kept at most.
    let capacity: Int
    /// Seconds a change is kept.
    let maxAge: Int

    /// An empty log.
    public init(capacity: Int = 2_000, maxAge: Int = 86_400, changes: [RankChange] = []) {
        self.capacity = max(1, capacity)
        self.maxAge = max(1, maxAge)
        append(changes, now: changes.last?.second ?? 0)
    }

    /// Adds `new` (seen at `now`) and forgets what is too old or beyond the capacity.
    mutating func append(_ new: [RankChange], now: Int) {
        changes += new
        let oldest = now - maxAge
        if let keep = changes.firstIndex(where: { $0.second >= oldest }) {
            changes.removeFirst(keep)
        } else {
            changes.removeAll()
        }
        if changes.count > capacity { changes.removeFirst(changes.count - capacity) }
    }

    /// The changes after `second` (exclusive) up to `now`, oldest first.
    public func since(_ second: Int) -> ArraySlice<RankChange> {
        changes[start(after: second)...]
    }

    /// The index of the first change after `second`, by bisection (the changes are in time order): the news asks
    /// for each of its lead changes what came after it, on every poll.
    private func start(after second: Int) -> Int {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].second > second { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The newest change between the active user and `userID` (passed you / you passed) at or after `notBefore`.
    public func latest(between userID: String, notBefore: Int) -> RankChange? {
        changes.last { $0.userID == userID && !$0.kind.isLead && $0.second >= notBefore }
    }

    /// The newest lead change in `habit` at or after `notBefore`.
    public func latestLeader(in habit: String, notBefore: Int) -> RankChange? {
        changes.last { $0.habit == habit && $0.kind.isLead && $0.second >= notBefore }
    }

    /// Whether the log knows `userID` as the only leader of `habit` once: the subject of a "took the lead" or "took
    /// back", the one leader such a change passed, or the one leader a tie caught up with (not a second new one, who
    /// tied at the same time). Who only tied never led alone: their later lead is not "back".
    func hasLed(_ userID: String, in habit: String) -> Bool {
        let lead = changes.filter { $0.habit == habit && $0.kind.isLead }
        return lead.contains { change in
            guard change.kind == .tiedLead else { return change.userID == userID || change.others.first?.id == userID }
            return change.others.count == 1 && change.others[0].id == userID
                && !lead.contains { $0.kind == .tiedLead && $0.second == change.second && $0.userID == userID }
        }
    }

    /// When the lead `change` told of ended: the second of the first later lead change in its habit that leaves its
    /// person off the top (someone else alone there, or a tie without them); nil while the log knows none.
    func end(of change: RankChange) -> Int? {
        since(change.second).first { later in
            later.habit == change.habit && later.kind.isLead && later.userID != change.userID
                && (later.kind != .tiedLead || !later.others.contains { $0.id == change.userID })
        }?.second
    }

    /// How `change` reads at `now` (issue 47 point 1): a lead change still true as it is, one that ended "had the
    /// lead … until" its end, and nil for one whose person is not at the top now (`leaders(habit)`: the ids ranked
    /// first) when the log does not know since when (a restart or a tie left without a lead change).
    public func line(_ change: RankChange, leaders: (String) -> [String], now: Int, inHabit: Bool = true) -> MomentLine? {
        guard change.kind.isLead else { return MomentLine(change, now: now, inHabit: inHabit) }
        if let end = end(of: change) { return MomentLine(change, now: now, inHabit: inHabit, until: end) }
        let current = leaders(change.habit)
        guard current.contains(change.userID), change.kind != .tiedLead || current.count > 1 else { return nil }
        return MomentLine(change, now: now, inHabit: inHabit)
    }

    /// The lines of `changes` (newest first) as `line` words them, each (habit, person, kind) once: the newest, so
    /// the same notice is never repeated (issue 47 point 1). A lead that ended is said only for a person with no newer
    /// line in the habit ("Bob tied Amy" says more than "Bob had the lead" before it).
    public func lines(_ changes: some Sequence<RankChange>, leaders: (String) -> [String], now: Int) -> [MomentLine] {
        var seen = Set<String>()
        var people = Set<String>()
        return changes.compactMap { change in
            guard let line = line(change, leaders: leaders, now: now) else { return nil }
            let person = change.habit + "\u{0}" + change.userID
            let first = people.insert(person).inserted
            if line.until != nil { return first ? line : nil }
            return seen.insert(person + "\u{0}" + String(change.kind.rawValue)).inserted ? line : nil
        }
    }

    /// The ids ranked first in each habit of `snapshot`, for `line` and `lines`.
    public static func leaders(in snapshot: Snapshot) -> (String) -> [String] {
        { habit in snapshot.rankings[habit]?.leaders.map(\.user.id) ?? [] }
    }
}
