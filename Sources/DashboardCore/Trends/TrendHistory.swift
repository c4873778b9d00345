import Foundation

/// The history of every habit's and every person's total count at three resolutions (issue 22 point 1): one sample
/// per 10 s for the last hour, per 5 min for the last day and per hour for the last 30 days. Every recording goes to
/// each tier; a slot keeps the first and the last total recorded in it (issue 47), so a range's change, low and high
/// are those of every total recorded over its slots, at any resolution, for totals that only grow within a slot.
/// Slots in which nothing was recorded (the dashboard was down) are gaps at every resolution, never copies of a
/// neighbour.
///
/// A pure value: time arrives as whole seconds since 1970 (wall clock, so slots mean the same after a restart),
/// and every tier's slots are counted from the epoch, so a 5-minute slot is 10:05–10:10 in every run.
///
/// **Memory bound** (per series, in all: README states the same figures). A series holds 2 × (361 + 289 + 721) =
/// 2,742 samples, as runs of 8 bytes a change (`TrendRing`), never more than dense samples of 4 bytes: at most 10,968
/// bytes, plus about 100 bytes of ring, header and name-table entry per tier (~11.3 KB). A total that does not change
/// in a tier's reach costs one run there. The built-in data has 19 habits and 42 people: 61 series, at most 669,048
/// bytes of samples (~690 KB in all); ten times the data, 610 series, 6.69 MB (~6.9 MB). At most `maxSeries` (4,096)
/// per kind per tier are kept: 89.8 MB at the very worst, every total changing twice in every slot.
struct TrendHistory: Equatable, Sendable {
    /// (seconds per slot, slots kept) of each tier, finest first: 10 s × 361 (an hour and its start), 5 min × 289
    /// (a day), 1 h × 721 (30 days).
    static let standardTiers: [(spacing: Int, capacity: Int)] = [(10, 361), (300, 289), (3_600, 721)]

    /// The tiers, finest first.
    private(set) var tiers: [TrendTier]

    /// Creates an empty history with `tiers` (the standard three by default).
    init(tiers: [(spacing: Int, capacity: Int)] = standardTiers, maxSeries: Int = 4096) {
        self.tiers = tiers.map { TrendTier(spacing: $0.spacing, capacity: $0.capacity, maxSeries: maxSeries) }
    }

    /// A history made of restored tiers (the history file).
    init(restored tiers: [TrendTier]) {
        self.tiers = tiers
    }

    /// The finest tier (10 s): the sparklines, "Happening now" and the render keys of live pages.
    var fine: TrendTier { tiers[0] }

    /// Records the totals seen at `second` in every tier; `change`, when given, is what differs from the totals
    /// recorded last (`TrendTier.record`).
    mutating func record(
        habitTotals: [String: Int], userTotals: [String: Int], second: Int, change: TotalsChange? = nil
    ) {
        for index in tiers.indices {
            let slot = Self.slot(second, spacing: tiers[index].spacing)
            tiers[index].record(habitTotals: habitTotals, userTotals: userTotals, slot: slot, change: change)
        }
    }

    /// The slot of `second` in a tier of `spacing`: rounded down, also before 1970.
    static func slot(_ second: Int, spacing: Int) -> Int {
        let quotient = second / spacing
        return second % spacing < 0 ? quotient - 1 : quotient
    }

    /// The slots of a series over `range`, oldest first (each one's first and last total), and the second at which
    /// the last slot starts; nil when the series is not tracked. `person` chooses the people's table over the habits'.
    func samples(
        _ key: String, person: Bool, range: HistoryRange
    ) -> (samples: [Int?], firsts: [Int?], lastSecond: Int)? {
        guard range.tier < tiers.count else { return nil }
        let tier = tiers[range.tier]
        guard let latest = tier.latestSlot,
            let slots = person ? tier.people.slots(key) : tier.habits.slots(key)
        else { return nil }
        let count = range.seconds / tier.spacing + 1
        return (Array(slots.last.suffix(count)), Array(slots.first.suffix(count)), latest * tier.spacing)
    }

    /// A series' trend over `range` (its "since 02:10" worded in `timeZone`); nil when it is not tracked.
    func trend(_ key: String, person: Bool, range: HistoryRange, timeZone: TimeZone = .current) -> Trend? {
        guard let cut = samples(key, person: person, range: range) else { return nil }
        let tier = tiers[range.tier]
        let slots = range == .hour ? tier.capacity : range.seconds / tier.spacing + 1
        return Trend(
            samples: cut.samples, firsts: cut.firsts, capacity: slots, spacing: tier.spacing, range: range,
            lastSecond: cut.lastSecond, timeZone: timeZone)
    }

    /// The first known total of a series recorded at or after `second` (within the finest tier that still reaches
    /// back that far): what a count was when a browser was last here. Nil when nothing that old is kept.
    func value(_ key: String, person: Bool, atOrAfter second: Int) -> (value: Int, second: Int)? {
        for tier in tiers {
            guard let latest = tier.latestSlot else { continue }
            let slot = Self.slot(second, spacing: tier.spacing)
            let age = latest - slot
            let table = person ? tier.people : tier.habits
            guard age >= 0, age < tier.capacity else { continue }
            for back in stride(from: age, through: 0, by: -1) {
                if let value = table.value(key, age: back) { return (value, (latest - back) * tier.spacing) }
            }
            return nil
        }
        return nil
    }
}
