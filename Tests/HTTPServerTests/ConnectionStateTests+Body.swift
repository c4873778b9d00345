import Testing

@testable import HTTPServer

/// The whole-body deadline, the minimum body rate (issue 8: a body trickled a byte every few seconds held its slot
/// for as long as the client liked), and what the server sees when it must make room at the connection cap.
extension ConnectionStateTests {
    /// 1 000 bytes/s after a 5 s grace, the whole body within 30 s, at most 10 s between reads.
    var ratePolicy: ConnectionState.Policy {
        ConnectionState.Policy(
            headerTimeout: .seconds(10), bodyReadTimeout: .seconds(10), bodyTimeout: .seconds(30),
            minimumBodyRate: 1000, bodyRateGracePeriod: .seconds(5), idleTimeout: .seconds(10),
            writeTimeout: .seconds(30), lingerTimeout: .seconds(1), maxRequests: 3, minimumSendRate: 0)
    }

    /// A state whose head completed at t(1) with no body byte yet.
    func bodyStarted(_ policy: ConnectionState.Policy) -> ConnectionState {
        var state = ConnectionState(policy: policy, now: t(0))
        state.needMoreData(parserPhase: .head, progress: 20, now: t(0.5))
        state.needMoreData(parserPhase: .body, progress: 0, now: t(1))
        return state
    }

    @Test func wholeBodyMustArriveWithinTheBodyTimeoutEvenWhenReadsKeepComing() {
        var policy = ratePolicy
        policy.minimumBodyRate = 0
        var state = bodyStarted(policy)
        for second in stride(from: 5.0, through: 30, by: 5) {
            state.needMoreData(parserPhase: .body, progress: Int(second), now: t(second))
            #expect(state.timerFired(now: t(second)) == .none)
        }
        #expect(state.nextDeadline == t(31))
        #expect(state.timerFired(now: t(30.9)) == .none)
        #expect(state.timerFired(now: t(31)) == .writeError(.requestTimeout))
    }

    @Test func bodyBelowTheMinimumRateIsRefusedWhenTheGracePeriodEnds() {
        var state = bodyStarted(ratePolicy)
        state.needMoreData(parserPhase: .body, progress: 100, now: t(2))
        state.needMoreData(parserPhase: .body, progress: 200, now: t(4))
        #expect(state.nextDeadline == t(6))
        #expect(state.timerFired(now: t(5.9)) == .none)
        #expect(state.timerFired(now: t(6)) == .writeError(.requestTimeout))
    }

    /// Every byte buys time at the minimum rate: 8 000 bytes cover 8 s from the body's start.
    @Test func bodyThatKeepsUpWithTheRateMovesItsDeadlineLater() {
        var state = bodyStarted(ratePolicy)
        state.needMoreData(parserPhase: .body, progress: 8000, now: t(3))
        #expect(state.nextDeadline == t(9))
        state.needMoreData(parserPhase: .body, progress: 20000, now: t(8))
        #expect(state.nextDeadline == t(18))  // now the gap between reads is the nearest
        #expect(state.timerFired(now: t(17.9)) == .none)
    }

    @Test func bodyClockStartsWhenContinueIsSent() {
        var state = ConnectionState(policy: ratePolicy, now: t(0))
        state.needMoreData(parserPhase: .head, progress: 20, now: t(0))
        #expect(state.continueExpected(now: t(2)) == .writeContinue)
        #expect(state.nextDeadline == t(7))
    }

    @Test func standingFollowsThePhase() {
        var state = ConnectionState(policy: ratePolicy, now: t(0))
        #expect(state.standing == .idle(since: t(0)))
        state.needMoreData(parserPhase: .head, progress: 10, now: t(1))
        state.needMoreData(parserPhase: .head, progress: 30, now: t(2))
        #expect(state.standing == .receiving(since: t(1), bytes: 30))
        state.needMoreData(parserPhase: .body, progress: 5, now: t(3))
        #expect(state.standing == .receiving(since: t(3), bytes: 5))
        _ = state.requestReceived(keepAlive: true, now: t(4))
        #expect(state.standing == .handling)
        _ = state.responseReady(now: t(5))
        #expect(state.standing == .busy)
        _ = state.writeFlushed(now: t(6))
        #expect(state.standing == .idle(since: t(6)))
    }

    @Test func evictionClosesAnIdleOrReceivingConnection() {
        var idle = ConnectionState(policy: ratePolicy, now: t(0))
        #expect(idle.evictionRequested(seen: .idle(since: t(0)), now: t(1)) == .close)
        #expect(idle.phase == .closed)
        var receiving = bodyStarted(ratePolicy)
        #expect(receiving.evictionRequested(seen: .handling, now: t(2)) == .close)
    }

    /// A request that reached its working handler, or whose answer the socket takes, is never cut off to make room.
    @Test func evictionLeavesARequestInProgressAlone() {
        var state = ConnectionState(policy: ratePolicy, now: t(0))
        _ = state.requestReceived(keepAlive: true, now: t(1))
        #expect(state.evictionRequested(seen: .handling, now: t(2)) == .none)
        #expect(state.responseReady(now: t(27)) == .writeResponse(closeAfter: false))
        #expect(state.evictionRequested(seen: .parked(since: t(1)), now: t(27)) == .none)
    }

    /// A parked poll is told to answer now (its 304), and that answer is the connection's last (issue 23).
    @Test func evictionInterruptsAParkedPollAndClosesAfterItsAnswer() {
        var state = ConnectionState(policy: ratePolicy, now: t(0))
        _ = state.requestReceived(keepAlive: true, now: t(1))
        #expect(state.evictionRequested(seen: .parked(since: t(1)), now: t(2)) == .interruptHandler)
        #expect(state.responseReady(now: t(2)) == .writeResponse(closeAfter: true))
    }

    /// A handler waiting on the upstream is given up: the connection closes and its answer will be dropped.
    @Test func evictionClosesAHandlerWaitingOnTheUpstream() {
        var state = ConnectionState(policy: ratePolicy, now: t(0))
        _ = state.requestReceived(keepAlive: true, now: t(1))
        #expect(state.evictionRequested(seen: .waitingOnUpstream(since: t(1)), now: t(4)) == .close)
        #expect(state.phase == .closed)
        #expect(state.responseReady(now: t(5)) == .none)
    }
}
