import Testing
import Timing

@testable import HTTPServer

/// Drives the pure connection state machine with a fake clock: `t(x)` is x seconds after the start.
@Suite struct ConnectionStateTests {
    let start = MonotonicInstant.now
    let policy = ConnectionState.Policy(
        headerTimeout: .seconds(10), bodyReadTimeout: .seconds(10), minimumBodyRate: 0, idleTimeout: .seconds(10),
        writeTimeout: .seconds(30), lingerTimeout: .seconds(1), maxRequests: 3, minimumSendRate: 0)

    func t(_ seconds: Double) -> MonotonicInstant { start + .milliseconds(Int(seconds * 1000)) }

    func fresh() -> ConnectionState { ConnectionState(policy: policy, now: t(0)) }

    @Test func idleConnectionClosesSilentlyAfterIdleTimeout() {
        var state = fresh()
        #expect(state.nextDeadline == t(10))
        #expect(state.timerFired(now: t(9.9)) == .none)
        #expect(state.timerFired(now: t(10)) == .close)
        #expect(state.phase == .closed)
    }

    /// Slowloris: bytes keep trickling in, but the whole head must arrive within 10 s of its first byte.
    @Test func headMustCompleteWithinHeaderTimeoutOfFirstByte() {
        var state = fresh()
        state.needMoreData(parserPhase: .head, now: t(5))
        state.needMoreData(parserPhase: .head, now: t(9))
        state.needMoreData(parserPhase: .head, now: t(14))
        #expect(state.nextDeadline == t(15))
        #expect(state.timerFired(now: t(14.9)) == .none)
        #expect(state.timerFired(now: t(15)) == .writeError(.requestTimeout))
    }

    @Test func bodyDeadlineRestartsOnEveryRead() {
        var state = fresh()
        state.needMoreData(parserPhase: .head, now: t(1))
        state.needMoreData(parserPhase: .body, now: t(2))
        state.needMoreData(parserPhase: .body, now: t(11))
        #expect(state.timerFired(now: t(20)) == .none)
        #expect(state.timerFired(now: t(21)) == .writeError(.requestTimeout))
    }

    @Test func keepAliveRequestReturnsToIdleAfterResponseIsWritten() {
        var state = fresh()
        #expect(state.requestReceived(keepAlive: true, now: t(1)) == .dispatch)
        #expect(state.nextDeadline == nil)  // a handler may take its time
        #expect(state.responseReady(now: t(2)) == .writeResponse(closeAfter: false))
        #expect(state.writeFlushed(now: t(3)) == .parseBuffered)
        #expect(state.phase == .idle(since: t(3)))
    }

    /// A long poll (issue 9) is a request in its handler for up to 25 s: far past the idle timeout, it is not idle
    /// and no timer closes it; the idle clock starts only once its answer is written.
    @Test func aRequestHeldInItsHandlerNeverHitsTheIdleDeadline() {
        var state = fresh()
        #expect(state.requestReceived(keepAlive: true, now: t(1)) == .dispatch)
        #expect(state.nextDeadline == nil)
        #expect(state.timerFired(now: t(26)) == .none)
        #expect(state.timerFired(now: t(300)) == .none)
        #expect(state.responseReady(now: t(300)) == .writeResponse(closeAfter: false))
        #expect(state.writeFlushed(now: t(300)) == .parseBuffered)
        #expect(state.nextDeadline == t(310))
    }

    @Test func connectionCloseRequestClosesAfterItsResponse() {
        var state = fresh()
        #expect(state.requestReceived(keepAlive: false, now: t(1)) == .dispatch)
        #expect(state.responseReady(now: t(1)) == .writeResponse(closeAfter: true))
        #expect(state.writeFlushed(now: t(1)) == .close)
    }

    @Test func lastAllowedRequestOnAConnectionSaysClose() {
        var state = fresh()
        for _ in 0..<2 {
            #expect(state.requestReceived(keepAlive: true, now: t(1)) == .dispatch)
            _ = state.responseReady(now: t(1))
            _ = state.writeFlushed(now: t(1))
        }
        #expect(state.requestReceived(keepAlive: true, now: t(1)) == .dispatch)
        #expect(state.responseReady(now: t(1)) == .writeResponse(closeAfter: true))
    }

    @Test func parseErrorIsAnsweredThenLingersThenCloses() {
        var state = fresh()
        #expect(state.parseFailed(status: .badRequest, now: t(1)) == .writeError(.badRequest))
        #expect(state.writeFlushed(now: t(1)) == .startLingering)
        #expect(state.nextDeadline == t(2))
        #expect(state.timerFired(now: t(2)) == .close)
    }

    @Test func clientThatStopsReadingIsClosedAfterWriteTimeout() {
        var state = fresh()
        _ = state.requestReceived(keepAlive: true, now: t(0))
        _ = state.responseReady(now: t(0))
        state.writeBlocked(now: t(0))
        state.writeProgressed(bytes: 100, now: t(20))
        state.writeBlocked(now: t(25))  // still blocked: the clock keeps running from the last progress
        #expect(state.nextDeadline == t(50))
        #expect(state.timerFired(now: t(49)) == .none)
        #expect(state.timerFired(now: t(50)) == .close)
    }

    @Test func continueExpectedStartsTheBodyDeadline() {
        var state = fresh()
        state.needMoreData(parserPhase: .head, now: t(0))
        #expect(state.continueExpected(now: t(1)) == .writeContinue)
        #expect(state.nextDeadline == t(11))
    }

    @Test func shutdownClosesIdleConnectionAtOnce() {
        var state = fresh()
        #expect(state.shutdownRequested(now: t(1)) == .close)
    }

    @Test func shutdownLetsInFlightResponseFinishWithClose() {
        var state = fresh()
        #expect(state.requestReceived(keepAlive: true, now: t(0)) == .dispatch)
        #expect(state.shutdownRequested(now: t(1)) == .none)
        #expect(state.responseReady(now: t(2)) == .writeResponse(closeAfter: true))
        #expect(state.writeFlushed(now: t(2)) == .close)
    }

    @Test func peerCloseWhileIdleCloses() {
        var state = fresh()
        #expect(state.peerClosed(now: t(1)) == .close)
    }

    @Test func peerHalfCloseDuringHandlerStillGetsTheResponse() {
        var state = fresh()
        _ = state.requestReceived(keepAlive: true, now: t(0))
        #expect(state.peerClosed(now: t(0)) == .none)
        #expect(state.responseReady(now: t(1)) == .writeResponse(closeAfter: true))
    }

    /// Regression: a client that pipelines requests and then half-closes (`printf … | nc -N`) got only the first
    /// answer. The connection reads only between answers, so the EOF arrives after the buffered requests have all
    /// been answered, when the parser is idle again, and only then closes it (live: `ConnectionTests`).
    @Test func peerHalfCloseAfterPipelinedRequestsAnswersEveryBufferedOne() {
        var state = fresh()
        _ = state.requestReceived(keepAlive: true, now: t(0))
        #expect(state.responseReady(now: t(1)) == .writeResponse(closeAfter: false))
        #expect(state.writeFlushed(now: t(1)) == .parseBuffered)
        #expect(state.requestReceived(keepAlive: true, now: t(1)) == .dispatch)
        #expect(state.responseReady(now: t(2)) == .writeResponse(closeAfter: false))
        #expect(state.writeFlushed(now: t(2)) == .parseBuffered)
        state.needMoreData(parserPhase: .idle, now: t(2))
        #expect(state.peerClosed(now: t(2)) == .close)
        #expect(state.phase == .closed)
    }

    /// Half-closed with part of a request buffered: that request can never complete, so the EOF read after the
    /// answer closes the connection, with no error answer.
    @Test func peerHalfCloseWithAnIncompleteRequestBufferedCloses() {
        var state = fresh()
        _ = state.requestReceived(keepAlive: true, now: t(0))
        _ = state.responseReady(now: t(1))
        #expect(state.writeFlushed(now: t(1)) == .parseBuffered)
        state.needMoreData(parserPhase: .head, progress: 9, now: t(1))
        #expect(state.peerClosed(now: t(1)) == .close)
        #expect(state.phase == .closed)
    }
}
