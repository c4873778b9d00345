import Logging
import TestSupport
import Testing
import Timing

@testable import HTTPServer

/// The summer's timer is on its clock: the counts of a second are written a little after it ends even when no later
/// line comes, and not before.
@Suite struct AccessLogSummerTests {
    let key = AccessLogSummary.Key(address: "127.0.0.10", method: "GET", path: "/fragments/home", status: 304, bytes: 0)

    @Test func theCountsOfASecondAreWrittenByTheTimerWhenNoLaterLineComes() async {
        let clock = ManualClock()
        let summer = AccessLogSummer(clock: clock)
        let (logger, capture) = Logger.capturing(level: .debug)
        #expect(summer.shouldWrite(key, at: MonotonicInstant(clock.now), logger: logger))
        #expect(!summer.shouldWrite(key, at: MonotonicInstant(clock.now), logger: logger))
        #expect(!summer.shouldWrite(key, at: MonotonicInstant(clock.now), logger: logger))
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

    /// Each loop passes its own round's time, and one loop's round may have started before another's: a line whose
    /// time is older than the second already begun counts in that second instead of ending it again.
    @Test func aLineFromALoopWhoseRoundStartedEarlierCountsInTheCurrentSecond() {
        let clock = ManualClock()
        let summer = AccessLogSummer(clock: clock)
        let (logger, capture) = Logger.capturing(level: .debug)
        let start = MonotonicInstant(clock.now)
        #expect(summer.shouldWrite(key, at: start + .milliseconds(1500), logger: logger))
        #expect(!summer.shouldWrite(key, at: start + .milliseconds(900), logger: logger))
        #expect(summer.summedLines == 1)
        #expect(capture.lines.isEmpty, "no second ended")
        #expect(summer.shouldWrite(key, at: start + .milliseconds(2000), logger: logger))
        #expect(capture.lines.count == 1)
        #expect(capture.lines[0].contains("repeated=1"))
    }
}
