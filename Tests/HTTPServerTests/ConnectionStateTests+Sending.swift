import Testing

@testable import HTTPServer

/// The minimum send rate (issue 23): a peer that does not take its answers loses its connection after a grace.
extension ConnectionStateTests {
    var sendPolicy: ConnectionState.Policy {
        ConnectionState.Policy(
            headerTimeout: .seconds(10), bodyReadTimeout: .seconds(10), minimumBodyRate: 0, idleTimeout: .seconds(10),
            writeTimeout: .seconds(30), lingerTimeout: .seconds(1), maxRequests: 100, minimumSendRate: 1000,
            sendRateGracePeriod: .seconds(5))
    }

    func answering(_ policy: ConnectionState.Policy) -> ConnectionState {
        var state = ConnectionState(policy: policy, now: t(0))
        _ = state.requestReceived(keepAlive: true, now: t(0))
        _ = state.responseReady(now: t(0))
        return state
    }

    /// Pipelined slow readers: 4 KiB every 10 s is 400 bytes a second, below the 1000 required after the grace.
    @Test func aPeerReadingBelowTheMinimumRateIsClosedAfterTheGrace() {
        var state = answering(sendPolicy)
        state.writeBlocked(now: t(0))
        #expect(state.nextDeadline == t(5))
        #expect(state.timerFired(now: t(4.9)) == .none)
        state.writeProgressed(bytes: 4096, now: t(4.9))
        // 4096 bytes cover 4.096 s at 1000 bytes a second: the grace still holds until 5 s.
        #expect(state.nextDeadline == t(5))
        #expect(state.timerFired(now: t(5)) == .close)
        #expect(state.phase == .closed)
    }

    @Test func aPeerReadingAtTheMinimumRateKeepsItsConnection() {
        var state = answering(sendPolicy)
        state.writeBlocked(now: t(0))
        for second in 1...20 {
            state.writeProgressed(bytes: 1500, now: t(Double(second)))
            #expect(state.timerFired(now: t(Double(second))) == .none)
        }
        // 30 000 bytes cover 30 s.
        #expect(state.nextDeadline == t(30))
        #expect(state.writeFlushed(now: t(21)) == .parseBuffered)
        #expect(state.sendProgress == nil)
    }

    /// The rate is judged per answer that waits on the peer: a flushed answer starts the next one's clock afresh.
    @Test func eachWaitingAnswerIsJudgedFromWhenTheSocketFirstRefusedIt() {
        var state = answering(sendPolicy)
        state.writeBlocked(now: t(0))
        _ = state.writeFlushed(now: t(3))
        _ = state.requestReceived(keepAlive: true, now: t(10))
        _ = state.responseReady(now: t(10))
        state.writeBlocked(now: t(10))
        #expect(state.sendProgress == ConnectionState.SendProgress(started: t(10), sent: 0))
        #expect(state.nextDeadline == t(15))
    }

    /// What eviction sees: an answer waiting on its peer is a slow reader (judged by rate); one the socket takes
    /// whole is busy.
    @Test func aWaitingAnswerStandsAsSendingAndAFlowingOneAsBusy() {
        var state = answering(sendPolicy)
        #expect(state.standing == .busy)
        state.writeBlocked(now: t(1))
        state.writeProgressed(bytes: 300, now: t(2))
        #expect(state.standing == .sending(since: t(1), bytes: 300))
        #expect(state.evictionRequested(seen: state.standing, now: t(3)) == .close)
    }

    @Test func theSendRateIsOffAtZero() {
        var state = answering(policy)
        state.writeBlocked(now: t(0))
        #expect(state.nextDeadline == t(30))
    }
}
