/// The bounded history of every habit's and every person's total count: one sample per slot (10 s by default) for
/// the last `capacity` slots (361: an hour and its starting point), shared by the sparklines and Home's "Happening
/// now" (issue 10 points 3 and 4).
///
/// A pure value: time arrives as a slot number (the caller divides its clock by the spacing), so it knows no clock.
///
/// **Memory bound.** Each series holds one `TrendRing` of `capacity` `Int32`s, allocated once: 361 × 4 = 1,444 bytes
/// of samples, plus about 100 bytes of ring, array header and name-table entry (and the name's bytes beyond 15). So
/// N habits and M people cost (N + M) × ~1.55 KB. The built-in data has 19 habits and 42 people (41 users and the
/// active user): 61 series, 88,084 bytes of samples, about 95 KB in all. Series are dropped once absent for a whole
/// ring, and at most `maxSeries` per kind are kept (4,096: about 6.3 MB per kind at worst), so the bound holds
/// whatever the upstream sends.
struct TrendHistory: Equatable, Sendable {
    /// Samples per series.
    let capacity: Int
    /// The habits' totals, by habit name.
    private(set) var habits: TrendTable
    /// The people's totals, by user id.
    private(set) var people: TrendTable
    /// The slot of every series' newest sample; nil before the first recording.
    private(set) var latestSlot: Int?

    /// Creates an empty history.
    init(capacity: Int = 361, maxSeries: Int = 4096) {
        self.capacity = max(2, capacity)
        habits = TrendTable(capacity: self.capacity, maxSeries: maxSeries)
        people = TrendTable(capacity: self.capacity, maxSeries: maxSeries)
    }

    /// Records the totals seen in `slot`. A later total in the latest slot replaces it (a slot keeps its last value);
    /// slots skipped since the latest are unknown (nothing was fetched then); a slot before the latest (a clock set
    /// back) counts as the latest.
    mutating func record(habitTotals: [String: Int], userTotals: [String: Int], slot: Int) {
        guard let latest = latestSlot, slot > latest else {
            if latestSlot == nil {
                latestSlot = slot
                habits.advance(habitTotals, steps: 1)
                people.advance(userTotals, steps: 1)
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

    /// The trend of a habit; nil when it is not tracked.
    func habit(_ name: String) -> [Int?]? { habits.samples(name) }

    /// The trend of a person; nil when they are not tracked.
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
