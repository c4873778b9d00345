import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct StaleNoticeTests {
    @Test func formatsHoursMinutesAndSecondsWithLeadingZeros() {
        let date = Date(timeIntervalSince1970: 9 * 3600 + 5 * 60 + 7)
        #expect(StaleNotice(dataFetchedAt: date, timeZone: .gmt, now: date).asOf == "09:05:07")
        #expect(
            StaleNotice(dataFetchedAt: date, timeZone: TimeZone(secondsFromGMT: 3600)!, now: date).asOf == "10:05:07")
        #expect(StaleNotice(dataFetchedAt: date, timeZone: .gmt, now: date).iso == "1970-01-01T09:05:07Z")
    }

    /// After a restart the snapshot shown may be days old: "as of 10:31:19" alone would read as today.
    @Test func namesTheDayWhenTheDataIsNotFromToday() {
        let fetched = Date(timeIntervalSince1970: 1_800_000_000)  // Friday 15 January 2027, 08:00:00 UTC
        #expect(StaleNotice(dataFetchedAt: fetched, timeZone: .gmt, now: fetched + 3_600).asOf == "08:00:00")
        #expect(
            StaleNotice(dataFetchedAt: fetched, timeZone: .gmt, now: fetched + 3 * 86_400).asOf
                == "Fri 15 Jan, 08:00:00")
    }
}
