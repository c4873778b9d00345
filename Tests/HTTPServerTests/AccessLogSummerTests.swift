import Logging
import TestSupport
import Testing

@testable import HTTPServer

/// The summer's timer is on its clock: the counts of a second are written a little after it ends even when no later
/// line comes, and not before.
@Suite struct AccessLogSummerTests {
    let key = AccessLogSummary.Key(address: "127.0.0.10", method: "GET", path: "/fragments/home", status: 304, bytes: 0)

    @Test func theCountsOfASecondAreWrittenByTheTimerWhenNoLaterLineComes() async {
        let clock = ManualClock()
        let summer = AccessLogSummer(clock: clock)
        let (logger, capture) = Logger.capturing(level: .debug)
        #expect(summer.shouldWrite(key, logger: logger))
        #expect(!summer.shouldWrite(key, logger: logger))
        #expect(!summer.shouldWrite(key, logger: logger))
        #expect(summer.summedLines == 2)
        await eventually("the summer's timer asleep") { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(1099))
        #expect(clock.sleeperCount == 1, "not due: the timer sleeps on")
        #expect(capture.lines.isEmpty)
        clock.advance(by: .milliseconds(1))
        await eventually("the summary line") { !capture.lines.isEmpty }
        #expect(capture.lines.count == 1)
        #expect(capture.lines[0].contains("request repeated"))
        #expect(capture.lines[0].contains("repeated=2"))
        #expect(capture.lines[0].contains("http.path=/fragments/home"))
    }
}
