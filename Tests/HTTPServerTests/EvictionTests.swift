import Testing
import Timing

@testable import HTTPServer

/// Which connection makes room at the cap, decided from standings and a fake clock.
@Suite struct EvictionTests {
    let start = MonotonicInstant.now

    func t(_ seconds: Double) -> MonotonicInstant { start + .milliseconds(Int(seconds * 1000)) }

    /// The victim among connections all from one address, for a newcomer from that address.
    func victim(_ standings: [ConnectionState.Standing], now: Double) -> Int? {
        let candidates = standings.enumerated().map {
            Eviction.Candidate(id: $0.offset, address: "a", standing: $0.element)
        }
        return Eviction.victim(among: candidates, newcomer: "a", now: t(now))
    }

    /// The victim among `holders` (address, standing) for a newcomer from `newcomer`: its index in `holders`.
    func victim(_ holders: [(String, ConnectionState.Standing)], newcomer: String, now: Double = 10) -> Int? {
        let candidates = holders.enumerated().map {
            Eviction.Candidate(id: $0.offset, address: $0.element.0, standing: $0.element.1)
        }
        return Eviction.victim(among: candidates, newcomer: newcomer, now: t(now))
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

    /// The order within one holder: idle, then a parked poll, then the slowest peer (reader or sender), then a
    /// handler waiting on the upstream; a working handler never.
    @Test func theCheapestConnectionGoesFirst() {
        var standings: [ConnectionState.Standing] = [
            .busy, .handling, .waitingOnUpstream(since: t(1)), .sending(since: t(0), bytes: 4_000),
            .receiving(since: t(0), bytes: 90_000), .parked(since: t(6)), .parked(since: t(2)), .idle(since: t(9)),
        ]
        #expect(victim(standings, now: 10) == 7)
        standings[7] = .busy
        #expect(victim(standings, now: 10) == 6)
        standings[6] = .busy
        standings[5] = .busy
        #expect(victim(standings, now: 10) == 3)  // 400 bytes/s read beats 9 000 bytes/s sent
        standings[3] = .busy
        #expect(victim(standings, now: 10) == 4)
        standings[4] = .busy
        #expect(victim(standings, now: 10) == 2)
        standings[2] = .busy
        #expect(victim(standings, now: 10) == nil)
    }

    /// Issue 23: four addresses fill the cap with connections that are all busy in their way; a newcomer from a
    /// fifth address takes one of the largest holder's, even though another holder has a cheaper idle one.
    @Test func aNewcomerTakesFromTheLargestHolderNotTheCheapestConnectionAnywhere() {
        let holders: [(String, ConnectionState.Standing)] = [
            ("probe", .idle(since: t(0))),
            ("b", .sending(since: t(0), bytes: 10)), ("b", .sending(since: t(0), bytes: 50)),
            ("c", .waitingOnUpstream(since: t(0))), ("c", .sending(since: t(0), bytes: 5)),
            ("c", .sending(since: t(0), bytes: 1)),
        ]
        #expect(victim(holders, newcomer: "new") == 5)
        // The probe's own newcomer takes from c too, never the probe's idle connection first.
        #expect(victim(holders, newcomer: "probe") == 5)
    }

    /// No address is ever made to give up a connection for an address that holds more than it.
    @Test func aLargerHolderNeverTakesFromASmallerOne() {
        let holders: [(String, ConnectionState.Standing)] = [
            ("probe", .idle(since: t(0))), ("probe", .idle(since: t(1))),
            ("attacker", .busy), ("attacker", .busy), ("attacker", .busy),
        ]
        #expect(victim(holders, newcomer: "attacker") == nil)
        #expect(victim(holders, newcomer: "other") == 0)
    }

    /// When the largest holder has nothing to give up, the next largest does (still not smaller than the newcomer).
    @Test func theNextLargestHolderGivesWhenTheLargestCannot() {
        let holders: [(String, ConnectionState.Standing)] = [
            ("a", .handling), ("a", .handling), ("a", .handling),
            ("b", .handling), ("b", .parked(since: t(3))),
            ("c", .idle(since: t(0))),
        ]
        #expect(victim(holders, newcomer: "new") == 4)
        #expect(victim(holders, newcomer: "b") == 4)  // its own, as for equals
        #expect(victim(holders, newcomer: "x") == 4)
        let allBusy: [(String, ConnectionState.Standing)] = [("a", .handling), ("b", .busy), ("c", .idle(since: t(0)))]
        #expect(victim(allBusy, newcomer: "d") == 2)
        #expect(victim(allBusy, newcomer: "c") == 2)
    }

    /// Addresses holding the same number are judged together: the cheapest connection among them goes.
    @Test func equalHoldersAreJudgedTogether() {
        let holders: [(String, ConnectionState.Standing)] = [
            ("a", .parked(since: t(1))), ("a", .handling), ("b", .handling), ("b", .idle(since: t(5))),
        ]
        #expect(victim(holders, newcomer: "new") == 3)
        #expect(victim(holders, newcomer: "a") == 3)
    }
}
