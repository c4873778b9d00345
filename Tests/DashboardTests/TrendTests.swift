import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct TrendTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 02:10:00 UTC.
    static let tenPastTwo = 1_800_000_000 - 1_800_000_000 % 86_400 + 2 * 3_600 + 600

    static let hour = Trend(samples: (0...360).map { $0 }, capacity: 361, spacing: 10, timeZone: utc)

    @Test func aWholeHourSaysTheHourInItsTextAndItsLabel() {
        #expect(Self.hour.coversRange)
        #expect(Self.hour.changeText == "+360 in the last hour")
        #expect(Self.hour.label == "Count over the last hour: from 0 to 360")
    }

    @Test func aYoungerHistorySaysSinceWhenInItsTextAndItsLabel() {
        // Three slots, the last starting at 02:10:20: recorded since 02:10.
        let trend = Trend(
            samples: [3, 4, 9], capacity: 361, spacing: 10, lastSecond: Self.tenPastTwo + 20, timeZone: Self.utc)
        #expect(!trend.coversRange)
        #expect(trend.startSecond == Self.tenPastTwo)
        #expect(trend.changeText == "+6 since 02:10")
        #expect(trend.label == "Count since 02:10: from 3 to 9")
        // A start on another day than the latest slot names its day.
        let week = Trend(
            samples: [3, nil, nil, 9], capacity: 169, spacing: 3_600, range: .week, lastSecond: Self.tenPastTwo,
            timeZone: Self.utc)
        #expect(week.changeText?.hasPrefix("+6 since ") == true)
        #expect(week.changeText?.hasSuffix(", 23:10") == true)
        #expect(week.changeText != "+6 since 23:10")
    }

    @Test func eachSlotsFirstTotalStartsTheLineWhereNothingCameBefore() {
        // The oldest slot grew from 395 to 424, then a gap, then a slot from 430 to 440.
        let trend = Trend(
            samples: [424, nil, 440], firsts: [395, nil, 430], capacity: 3, spacing: 300, range: .day,
            timeZone: Self.utc)
        #expect(trend.points == [395, 424, 430, 440])
        #expect(trend.change == 45)
        #expect(trend.extremes?.low == 395)
        #expect(trend.extremes?.high == 440)
        #expect(trend.coversRange)
        #expect(trend.changeText == "+45 in the last day")
    }

    @Test func oneSlotThatGrewIsALineAndOneTotalIsNot() {
        let grew = Trend(samples: [424], firsts: [395], capacity: 289, spacing: 300, range: .day, timeZone: Self.utc)
        #expect(grew.hasLine)
        #expect(grew.change == 29)
        let single = Trend(samples: [7], capacity: 361, spacing: 10)
        #expect(!single.hasLine)
        #expect(single.changeText == nil)
        #expect(single.label == "Count so far: 7, no earlier point yet")
        #expect(Trend(samples: [], capacity: 361, spacing: 10).label == "No count recorded yet")
    }

    @Test func aFallingCountIsShownWithAMinusSign() {
        let trend = Trend(samples: [9, 7], capacity: 361, spacing: 10, lastSecond: Self.tenPastTwo, timeZone: Self.utc)
        #expect(trend.changeText == "\u{2212}2 since 02:09")
    }
}
