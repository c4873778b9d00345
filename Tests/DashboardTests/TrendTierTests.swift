import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct TrendTierTests {
    @Test func oneSamplePerSlotTheLastValueInASlotWinning() {
        var history = TrendTier(capacity: 5)
        history.record(habitTotals: ["Yoga": 1], userTotals: ["user0": 1], slot: 100)
        history.record(habitTotals: ["Yoga": 2], userTotals: ["user0": 2], slot: 100)
        history.record(habitTotals: ["Yoga": 4], userTotals: ["user0": 3], slot: 101)
        #expect(history.habit("Yoga") == [2, 4])
        #expect(history.person("user0") == [2, 3])
        #expect(history.latestSlot == 101)
    }

    @Test func slotsWithNoRecordingAreGapsNotCopies() {
        var history = TrendTier(capacity: 6)
        history.record(habitTotals: ["Yoga": 1], userTotals: [:], slot: 0)
        history.record(habitTotals: ["Yoga": 5], userTotals: [:], slot: 3)
        #expect(history.habit("Yoga") == [1, nil, nil, 5])
    }

    @Test func aClockSetBackCountsAsTheLatestSlot() {
        var history = TrendTier(capacity: 4)
        history.record(habitTotals: ["Yoga": 1], userTotals: [:], slot: 10)
        history.record(habitTotals: ["Yoga": 2], userTotals: [:], slot: 4)
        #expect(history.habit("Yoga") == [2])
        #expect(history.latestSlot == 10)
    }

    @Test func aClockJumpingFarAheadCostsOneRing() {
        var history = TrendTier(capacity: 4)
        history.record(habitTotals: ["Yoga": 1], userTotals: [:], slot: Int.min + 1)
        history.record(habitTotals: ["Yoga": 9], userTotals: [:], slot: Int.max)
        #expect(history.habit("Yoga") == [nil, nil, nil, 9])
    }

    /// The stated bound: however long it runs, no series holds more than `capacity` samples (361 for an hour).
    @Test func theCapacityIsNeverExceeded() {
        var history = TrendTier()
        for slot in 0..<1000 {
            history.record(habitTotals: ["Yoga": slot], userTotals: ["user0": slot * 2], slot: slot)
        }
        #expect(history.habit("Yoga")?.count == 361)
        #expect(history.habit("Yoga")?.first == 639)
        #expect(history.person("user0")?.count == 361)
        #expect(history.habits.ringCount == 1)
    }

    @Test func theBaselineIsTheOldestRecordedSlotInTheWindowBeforeTheLatest() throws {
        var history = TrendTier(capacity: 40)
        history.record(habitTotals: ["Yoga": 1], userTotals: ["user0": 1], slot: 0)
        history.record(habitTotals: ["Yoga": 3], userTotals: ["user0": 2], slot: 5)
        history.record(habitTotals: ["Yoga": 8], userTotals: ["user0": 4], slot: 35)
        let baseline = try #require(history.baseline(notBefore: 5))
        #expect(baseline.slot == 5)
        #expect(baseline.habitTotals == ["Yoga": 3])
        #expect(baseline.userTotals == ["user0": 2])
        #expect(history.baseline(notBefore: 35) == nil)
        #expect(history.baseline(notBefore: -100)?.slot == 0)
    }
}
