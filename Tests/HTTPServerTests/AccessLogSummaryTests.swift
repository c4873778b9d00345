import Testing

@testable import HTTPServer

/// Repeated identical access-log lines to one address are summed per second (issue 23).
@Suite struct AccessLogSummaryTests {
    func key(_ address: String = "127.0.0.10", path: String = "/fragments/home", status: Int = 304)
        -> AccessLogSummary.Key
    {
        AccessLogSummary.Key(address: address, method: "GET", path: path, status: status, bytes: 0)
    }

    @Test func theFirstLineOfAKindInASecondIsWrittenAndTheRestCounted() {
        var summary = AccessLogSummary()
        #expect(summary.record(key(), second: 7) == (true, []))
        for _ in 0..<999 { #expect(summary.record(key(), second: 7).write == false) }
        #expect(summary.record(key(path: "/"), second: 7).write)
        #expect(summary.summedTotal == 999)
        #expect(summary.hasPending)
        // The next second writes again, and reports the previous one's count first.
        let next = summary.record(key(), second: 8)
        #expect(next.write)
        #expect(next.ended == [AccessLogSummary.Summed(key: key(), count: 999)])
    }

    @Test func addressesStatusesAndPathsAreSummedApart() {
        var summary = AccessLogSummary()
        for address in ["127.0.0.10", "127.0.0.11"] {
            for status in [200, 304] {
                #expect(summary.record(key(address, status: status), second: 1).write)
                #expect(!summary.record(key(address, status: status), second: 1).write)
            }
        }
        #expect(summary.flush(second: 2).count == 4)
        #expect(summary.flush(second: 2).isEmpty)
    }

    @Test func aKindSeenOnceInASecondHasNoSummaryLine() {
        var summary = AccessLogSummary()
        _ = summary.record(key(), second: 1)
        #expect(summary.flush(second: 2) == [])
    }

    /// Past its bound of kinds in a second, lines are written as they come: memory stays bounded.
    @Test func kindsTrackedAreBounded() {
        var summary = AccessLogSummary(maxKinds: 2)
        _ = summary.record(key(path: "/a"), second: 1)
        _ = summary.record(key(path: "/b"), second: 1)
        #expect(summary.record(key(path: "/c"), second: 1).write)
        #expect(summary.record(key(path: "/c"), second: 1).write)
        #expect(!summary.record(key(path: "/a"), second: 1).write)
    }
}
