import Testing

@testable import HTTPServer

/// Which connection makes room at the cap, decided from standings and a fake clock.
@Suite struct EvictionTests {
    let start = ContinuousClock.now

    func t(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func victim(_ standings: [ConnectionState.Standing], now: Double) -> Int? {
        Eviction.victim(among: standings.enumerated().map { (id: $0.offset, standing: $0.element) }, now: t(now))
    }

    @Test func oldestIdleGoesFirstEvenBeforeASlowSender() {
        let standings: [ConnectionState.Standing] = [
            .receiving(since: t(0), bytes: 1), .idle(since: t(5)), .busy, .idle(since: t(3)), .idle(since: t(8)),
        ]
        #expect(victim(standings, now: 10) == 3)
    }

    @Test func slowestSenderGoesWhenNothingIsIdle() {
        let standings: [ConnectionState.Standing] = [
            .receiving(since: t(0), bytes: 5_000),  // 500 bytes/s
            .receiving(since: t(2), bytes: 40),  // 5 bytes/s
            .busy,
            .receiving(since: t(9), bytes: 900),  // 900 bytes/s
        ]
        #expect(victim(standings, now: 10) == 1)
    }

    /// A sender that began a moment ago is measured over at least a second, not judged on its first packet.
    @Test func aSenderThatJustBeganIsNotTakenForTheSlowest() {
        let standings: [ConnectionState.Standing] = [
            .receiving(since: t(9.999), bytes: 30),  // 30 bytes over the 1 s floor, not 30 000 bytes/s
            .receiving(since: t(0), bytes: 100),  // 10 bytes/s
        ]
        #expect(victim(standings, now: 10) == 1)
        // With no bytes at all, the one waiting longer goes first.
        #expect(victim([.receiving(since: t(9.9), bytes: 0), .receiving(since: t(2), bytes: 0)], now: 10) == 1)
    }

    @Test func nobodyIsTakenWhenEveryConnectionIsBusy() {
        #expect(victim([.busy, .busy], now: 10) == nil)
        #expect(victim([], now: 10) == nil)
    }
}
