import Testing

@testable import HTTPServer

/// One warning line per second with the counts since the last one (issue 8: 93 972 lines in a minute).
@Suite struct RefusalLogTests {
    let start = ContinuousClock.now

    func t(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func firstRefusalIsLoggedAtOnceAndTheRestOfTheSecondIsCounted() {
        var log = RefusalLog(interval: .seconds(1))
        #expect(log.record(.atCapacity, now: t(0)) == .log(RefusalLog.Counts(atCapacity: 1)))
        #expect(log.record(.atCapacity, now: t(0.1)) == .heldFirst(flushAt: t(1)))
        for _ in 0..<98 { #expect(log.record(.perClientLimit, now: t(0.5)) == .held) }
        #expect(
            log.record(.evicted, now: t(1))
                == .log(RefusalLog.Counts(atCapacity: 1, perClientLimit: 98, dropped: 0, evicted: 1)))
        #expect(log.pending.isEmpty)
    }

    /// When the flood stops, the held counts still reach the log once the second is over.
    @Test func heldCountsAreFlushedOnceTheIntervalHasPassed() {
        var log = RefusalLog(interval: .seconds(1))
        _ = log.record(.dropped, now: t(0))
        _ = log.record(.dropped, now: t(0.2))
        _ = log.record(.perClientLimit, now: t(0.3))
        #expect(log.flush(now: t(0.9)) == nil)
        #expect(log.flush(now: t(1)) == RefusalLog.Counts(perClientLimit: 1, dropped: 1))
        #expect(log.flush(now: t(5)) == nil)
        // A refusal after a quiet second is reported at once again.
        #expect(log.record(.atCapacity, now: t(5)) == .log(RefusalLog.Counts(atCapacity: 1)))
    }

    @Test func metadataNamesEveryCountAndThePeer() {
        let metadata = RefusalLog.Counts(atCapacity: 2, evicted: 3).metadata(lastPeer: "127.0.0.1:5000")
        #expect(metadata["refused.capacity"] == "2")
        #expect(metadata["evicted"] == "3")
        #expect(metadata["net.peer"] == "127.0.0.1:5000")
    }
}
