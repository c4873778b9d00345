/// The totals that differ between the snapshot recorded last and the next one, when both name the same habits and
/// people (issue 21 point 2: a refresh's cost grows with what changed). Recording a later total in the latest slot
/// then replaces only these samples: every other series' newest sample already is its total.
struct TotalsChange: Equatable, Sendable {
    /// The habits whose total changed, with the new total.
    var habits: [String: Int]
    /// The people whose total changed, with the new total.
    var people: [String: Int]

    /// The change from `old` to `new`; nil when a habit or person is in one and not the other (the whole totals are
    /// recorded then: series are added and dropped).
    init?(from old: Snapshot, to new: Snapshot) {
        guard let habits = Self.changed(from: old.habitTotals, to: new.habitTotals),
            let people = Self.changed(from: old.userTotals, to: new.userTotals)
        else { return nil }
        self.habits = habits
        self.people = people
    }

    /// The entries of `new` whose value differs in `old`; nil when their keys differ.
    static func changed(from old: [String: Int], to new: [String: Int]) -> [String: Int]? {
        guard old.count == new.count else { return nil }
        var changed: [String: Int] = [:]
        for (key, total) in new {
            guard let before = old[key] else { return nil }
            if before != total { changed[key] = total }
        }
        return changed
    }
}
