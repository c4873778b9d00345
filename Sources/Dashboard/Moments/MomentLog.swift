/// The recent `RankChange`s, newest last, bounded in age and count (issue 22 point 3): what Home's Following rows, the
/// leaderboard cards, the live notices and "since your last visit" read.
///
/// A pure value. It keeps the last `maxAge` seconds (a day: the rows say "the latest within the day", and "since your
/// last visit" looks back no further than the history's own summary) and at most `capacity` changes (2,000 of about
/// 80 bytes: ~160 KB at most; the oldest go first).
struct MomentLog: Equatable, Sendable {
    /// The changes, oldest first.
    private(set) var changes: [RankChange] = []
    /// Changes kept at most.
    let capacity: Int
    /// Seconds a change is kept.
    let maxAge: Int

    /// An empty log.
    init(capacity: Int = 2_000, maxAge: Int = 86_400, changes: [RankChange] = []) {
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
    func since(_ second: Int) -> ArraySlice<RankChange> {
        let start = changes.firstIndex { $0.second > second } ?? changes.endIndex
        return changes[start...]
    }

    /// The newest change between the active user and `userID` (passed you / you passed) at or after `notBefore`.
    func latest(between userID: String, notBefore: Int) -> RankChange? {
        changes.last { $0.userID == userID && $0.kind != .newLeader && $0.second >= notBefore }
    }

    /// The newest leader change in `habit` at or after `notBefore`.
    func latestLeader(in habit: String, notBefore: Int) -> RankChange? {
        changes.last { $0.habit == habit && $0.kind == .newLeader && $0.second >= notBefore }
    }
}
