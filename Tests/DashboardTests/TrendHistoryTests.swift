import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The three resolutions of the history (issue 22 point 1): 10 s for an hour, 5 min for a day, 1 h for 30 days.
@Suite struct TrendHistoryTests {
    /// A wall-clock start on an hour boundary.
    static let start = 1_800_000_000 - 1_800_000_000 % 3_600

    @Test func everyTierKeepsTheLastTotalOfEachOfItsSlots() {
        var history = TrendHistory()
        // One total a minute for 12 minutes: 12 fine samples with gaps between, 3 five-minute slots, 1 hour.
        for minute in 0..<12 {
            history.record(habitTotals: ["Yoga": minute], userTotals: [:], second: Self.start + minute * 60)
        }
        let fine = history.samples("Yoga", person: false, range: .hour)?.samples ?? []
        #expect(fine.compactMap { $0 } == Array(0..<12))
        #expect(fine.count == 11 * 6 + 1)
        #expect(history.samples("Yoga", person: false, range: .day)?.samples == [4, 9, 11])
        #expect(history.samples("Yoga", person: false, range: .week)?.samples == [11])
    }

    @Test func downtimeIsAGapAtEveryResolution() {
        var history = TrendHistory()
        history.record(habitTotals: ["Yoga": 1], userTotals: [:], second: Self.start)
        history.record(habitTotals: ["Yoga": 9], userTotals: [:], second: Self.start + 3 * 3_600)
        #expect(history.samples("Yoga", person: false, range: .week)?.samples == [1, nil, nil, 9])
        let day = history.samples("Yoga", person: false, range: .day)?.samples ?? []
        #expect(day.count == 37)
        #expect(day.first == 1)
        #expect(day.last == 9)
        #expect(day.dropFirst().dropLast().allSatisfy { $0 == nil })
    }

    /// The stated bound: however long it runs, a series holds at most 361 + 289 + 721 samples.
    @Test func noTierEverHoldsMoreThanItsCapacity() {
        var history = TrendHistory()
        for step in 0..<800 {
            history.record(habitTotals: ["Yoga": step], userTotals: ["user0": step], second: Self.start + step * 3_600)
        }
        #expect(history.tiers.map { $0.habit("Yoga")?.count } == [361, 289, 721])
        #expect(history.samples("Yoga", person: false, range: .month)?.samples.count == 721)
        #expect(history.samples("Yoga", person: false, range: .week)?.samples.count == 169)
        #expect(history.samples("user0", person: true, range: .month)?.samples.first == 79)
    }

    @Test func theSampleOfAPastMomentComesFromTheFinestTierThatReachesIt() {
        var history = TrendHistory()
        for minute in 0..<(3 * 60) {
            history.record(habitTotals: ["Yoga": minute], userTotals: [:], second: Self.start + minute * 60)
        }
        // 10 minutes ago: still in the 10 s tier, exact.
        #expect(history.value("Yoga", person: false, atOrAfter: Self.start + 170 * 60)?.value == 170)
        // 2 hours ago: the 5-minute tier, the end of that slot.
        #expect(history.value("Yoga", person: false, atOrAfter: Self.start + 60 * 60)?.value == 64)
        // Before anything was recorded: the oldest known.
        #expect(history.value("Yoga", person: false, atOrAfter: Self.start - 3_600)?.value == 4)
        #expect(history.value("Run", person: false, atOrAfter: Self.start) == nil)
    }

    @Test func slotsAreCountedFromNineteenSeventyAlsoBeforeIt() {
        #expect(TrendHistory.slot(305, spacing: 300) == 1)
        #expect(TrendHistory.slot(-1, spacing: 300) == -1)
        #expect(TrendHistory.slot(-300, spacing: 300) == -1)
    }
}
