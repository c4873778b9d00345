import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Charts that agree with each other (issue 47 point 2): every range's change, low, high and start are those of the
/// raw totals recorded over the same span, whatever the tier's resolution, and a range not yet recorded from its
/// start says "since …" in its text and its label alike.
@Suite struct TrendRangeFiguresTests {
    /// 02:02:10 UTC on a day: inside a 5-minute and an hour slot, as a dashboard started at any time is.
    static let start = 1_800_000_000 - 1_800_000_000 % 86_400 + 2 * 3_600 + 130
    static let utc = TimeZone(identifier: "UTC")!

    /// A recording of the raw totals.
    struct Recording {
        var second: Int
        var total: Int
    }

    /// Growing totals recorded every `every` seconds for `duration` seconds from `start` (several a 10 s slot when
    /// `every` is under 10, as while a page is watched), none in `down` (the dashboard stopped).
    static func recordings(every: Int, for duration: Int, down: Range<Int>? = nil) -> [Recording] {
        var total = 395
        var seed: UInt64 = 47
        return stride(from: 0, to: duration, by: every).compactMap { offset in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            total += Int(seed >> 61)  // 0 to 7 more each time
            if let down, down.contains(offset) { return nil }
            return Recording(second: start + offset, total: total)
        }
    }

    static func history(_ recordings: [Recording]) -> TrendHistory {
        var history = TrendHistory()
        for recording in recordings {
            history.record(habitTotals: ["Herbal tea": recording.total], userTotals: [:], second: recording.second)
        }
        return history
    }

    /// What the raw recordings say over `range` at the last one: the span is the range's slots, from the start of
    /// the oldest (the tier's resolution is where a range begins, not what it counts).
    static func expected(
        _ recordings: [Recording], range: HistoryRange
    ) -> (change: Int, low: Int, high: Int, start: Int, whole: Bool) {
        let spacing = TrendHistory.standardTiers[range.tier].spacing
        let slots = range == .hour ? 361 : range.seconds / spacing + 1
        let latest = TrendHistory.slot(recordings.last!.second, spacing: spacing)
        let windowStart = (latest - slots + 1) * spacing
        let inside = recordings.filter { $0.second >= windowStart }
        let totals = inside.map(\.total)
        let start = TrendHistory.slot(inside[0].second, spacing: spacing) * spacing
        return (totals.last! - totals[0], totals.min()!, totals.max()!, start, start == windowStart)
    }

    static func check(_ recordings: [Recording]) throws {
        let history = Self.history(recordings)
        for range in HistoryRange.allCases {
            let trend = try #require(history.trend("Herbal tea", person: false, range: range, timeZone: Self.utc))
            let expected = Self.expected(recordings, range: range)
            #expect(trend.change == expected.change, "\(range)")
            #expect(trend.extremes?.low == expected.low, "\(range)")
            #expect(trend.extremes?.high == expected.high, "\(range)")
            #expect(trend.startSecond == expected.start, "\(range)")
            #expect(trend.coversRange == expected.whole, "\(range)")
            // The visible change and the label name the same span.
            let span =
                expected.whole
                ? range.changeWording
                : "since " + TimeText.clock(expected.start, sameDayAs: trend.lastSecond, in: Self.utc)
            #expect(trend.changeText == "+\(expected.change) \(span)", "\(range)")
            let labelSpan = expected.whole ? "over the last \(range.title.dropFirst(2))" : span
            #expect(trend.label == "Count \(labelSpan): from \(expected.low) to \(expected.high)", "\(range)")
        }
    }

    @Test func aFreshStartsRangesAllSayTheRecordedSpansFiguresSinceItsStart() throws {
        // 20 minutes, two recordings a 10 s slot: the day's first 5-minute slot holds 3 min 50 s of growth.
        let recordings = Self.recordings(every: 5, for: 20 * 60)
        try Self.check(recordings)
        let history = Self.history(recordings)
        let hour = try #require(history.trend("Herbal tea", person: false, range: .hour, timeZone: Self.utc))
        let day = try #require(history.trend("Herbal tea", person: false, range: .day, timeZone: Self.utc))
        let growth = recordings.last!.total - recordings[0].total
        #expect(hour.changeText == "+\(growth) since 02:02")
        #expect(day.changeText == "+\(growth) since 02:00")
        #expect(day.extremes?.low == hour.extremes?.low)
    }

    @Test func aLongerHistoryWithDowntimeAgreesWithTheRawTotalsInEveryRange() throws {
        // 26 hours, one recording a minute, down for 40 minutes after the third hour: the hour is whole, the day too,
        // the week and month are not.
        try Self.check(Self.recordings(every: 60, for: 26 * 3_600, down: 3 * 3_600..<(3 * 3_600 + 2_400)))
        // Down over what would be the hour's start: the hour is recorded only since the dashboard came back.
        try Self.check(Self.recordings(every: 10, for: 3 * 3_600, down: 7_000..<7_400))
    }

    @Test func theDaysChangeIsNeverSmallerThanTheHoursWithinIt() throws {
        var history = TrendHistory()
        for recording in Self.recordings(every: 7, for: 2 * 3_600) {
            history.record(habitTotals: ["Herbal tea": recording.total], userTotals: [:], second: recording.second)
            let hour = history.trend("Herbal tea", person: false, range: .hour)?.change ?? 0
            let day = history.trend("Herbal tea", person: false, range: .day)?.change ?? 0
            #expect(day >= hour, "at \(recording.second - Self.start) s")
            if day < hour { break }
        }
    }
}
