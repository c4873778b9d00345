/// One resolution of the trend history: every habit's and every person's total count, the first and the last total
/// seen in each slot of `spacing` seconds, for the last `capacity` slots (`TrendHistory` keeps three: 10 s, 5 min and
/// 1 h).
///
/// A pure value: time arrives as a slot number (the caller divides its clock by the spacing), so it knows no clock.
/// Each series holds one `TrendRing` of at most `2 × capacity` samples (runs of changes, at most `capacity × 8` bytes
/// plus about 100 bytes of ring, array header and name-table entry). Series are dropped once absent for a whole ring,
/// and at most `maxSeries` per kind are kept, so the bound holds whatever the upstream sends.
struct TrendTier: Equatable, Sendable {
    /// Seconds per slot.
    let spacing: Int
    /// Samples per series.
    let capacity: Int
    /// The habits' totals, by habit name.
    private(set) var habits: TrendTable
    /// The people's totals, by user id.
    private(set) var people: TrendTable
    /// The slot of every series' newest sample; nil before the first recording.
    private(set) var latestSlot: Int?

    /// Creates an empty tier.
    init(spacing: Int = 10, capacity: Int = 361, maxSeries: Int = 4096) {
        self.spacing = max(1, spacing)
        self.capacity = max(2, capacity)
        habits = TrendTable(capacity: self.capacity, maxSeries: maxSeries)
        people = TrendTable(capacity: self.capacity, maxSeries: maxSeries)
    }

    /// Records the totals seen in `slot`. A later total in the latest slot replaces its last one (its first stays);
    /// slots skipped since the latest are unknown (nothing was fetched then); a slot before the latest (a clock set
    /// back) counts as the latest.
    /// `change`, when given, is what differs from the totals recorded last: a later total in the latest slot then
    /// replaces only those samples.
    mutating func record(
        habitTotals: [String: Int], userTotals: [String: Int], slot: Int, change: TotalsChange? = nil
    ) {
        guard let latest = latestSlot, slot > latest else {
            if latestSlot == nil {
                latestSlot = slot
                habits.advance(habitTotals, steps: 1)
                people.advance(userTotals, steps: 1)
            } else if let change {
                habits.overwrite(changed: change.habits)
                people.overwrite(changed: change.people)
            } else {
                habits.overwrite(habitTotals)
                people.overwrite(userTotals)
            }
            return
        }
        // Clamped so that a clock jumping far ahead costs one ring of unknowns, not a loop over the jump.
        let (gap, overflow) = slot.subtractingReportingOverflow(latest)
        let steps = overflow ? capacity + 1 : min(gap, capacity + 1)
        habits.advance(habitTotals, steps: steps)
        people.advance(userTotals, steps: steps)
        latestSlot = slot
    }

    /// The trend of a habit (each slot's last total); nil when it is not tracked.
    func habit(_ name: String) -> [Int?]? { habits.samples(name) }

    /// The trend of a person (each slot's last total); nil when they are not tracked.
    func person(_ id: String) -> [Int?]? { people.samples(id) }

    /// The oldest slot no earlier than `earliest` and before the latest in which some total is known, with the
    /// totals known then: what "now" is compared with.
    func baseline(notBefore earliest: Int) -> (slot: Int, habitTotals: [String: Int], userTotals: [String: Int])? {
        guard let latest = latestSlot else { return nil }
        let (reach, overflow) = latest.subtractingReportingOverflow(earliest)
        let oldestAge = overflow ? capacity - 1 : min(capacity - 1, reach)
        guard oldestAge >= 1 else { return nil }
        for age in stride(from: oldestAge, through: 1, by: -1) {
            let habitTotals = habits.values(age: age)
            let userTotals = people.values(age: age)
            if !habitTotals.isEmpty || !userTotals.isEmpty { return (latest - age, habitTotals, userTotals) }
        }
        return nil
    }
}

extension TrendTier {
    /// A tier restored from a file: its tables and latest slot as they were written.
    init(spacing: Int, capacity: Int, habits: TrendTable, people: TrendTable, latestSlot: Int?) {
        self.spacing = max(1, spacing)
        self.capacity = max(2, capacity)
        self.habits = habits
        self.people = people
        self.latestSlot = latestSlot
    }
}
