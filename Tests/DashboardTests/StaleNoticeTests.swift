import Foundation
import Testing

@testable import Dashboard

@Suite struct StaleNoticeTests {
    @Test func formatsHoursMinutesAndSecondsWithLeadingZeros() {
        let date = Date(timeIntervalSince1970: 9 * 3600 + 5 * 60 + 7)
        #expect(StaleNotice(dataFetchedAt: date, timeZone: .gmt).asOf == "09:05:07")
        #expect(StaleNotice(dataFetchedAt: date, timeZone: TimeZone(secondsFromGMT: 3600)!).asOf == "10:05:07")
    }
}
