import Testing

@testable import HTTPServer

/// Pipelining within bounds (issue 23 point 2): a peer that sends many requests at once gets at most 128 KiB of answers,
/// the last of them its connection's last; a peer that waits for each answer is never cut off.
extension ConnectionStateTests {
    /// The production pipelining bound (128 KiB), with room for many requests per connection.
    var pipelinePolicy: ConnectionState.Policy {
        ConnectionState.Policy(
            headerTimeout: .seconds(10), bodyReadTimeout: .seconds(10), minimumBodyRate: 0, idleTimeout: .seconds(10),
            writeTimeout: .seconds(30), lingerTimeout: .seconds(1), maxRequests: 100, minimumSendRate: 0)
    }

    /// Receives a keep-alive request and readies its answer of `bytes`; returns what `responseReady` said.
    func answer(_ state: inout ConnectionState, bytes: Int, at second: Double) -> ConnectionState.Action {
        _ = state.requestReceived(keepAlive: true, now: t(second))
        return state.responseReady(bodyBytes: bytes, now: t(second))
    }

    /// Four `/people` pages (28 KB each) pipelined: the fifth reaches 128 KiB and says close; the rest are dropped.
    @Test func aPipelineEndsWithTheAnswerThatReachesTheByteBoundAndLingers() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        for index in 1...4 {
            #expect(answer(&state, bytes: 28_000, at: 0) == .writeResponse(closeAfter: false), "answer \(index)")
            #expect(state.writeFlushed(now: t(0)) == .parseBuffered)
        }
        #expect(answer(&state, bytes: 28_000, at: 0) == .writeResponse(closeAfter: true))
        #expect(state.phase == .writing(closeAfter: true, linger: true), "the requests after it are dropped")
        #expect(state.writeFlushed(now: t(0)) == .startLingering)
    }

    /// Small answers (an `nc` session pipelining 90 requests) are all given: the bound is on bytes.
    @Test func aPipelineOfSmallAnswersIsAnsweredWhole() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        for _ in 1...90 {
            #expect(answer(&state, bytes: 1000, at: 0) == .writeResponse(closeAfter: false))
            _ = state.writeFlushed(now: t(0))
        }
    }

    @Test func aPipelineOfLargeAnswersEndsWhenItsBytesReachTheBound() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        #expect(answer(&state, bytes: 100_000, at: 0) == .writeResponse(closeAfter: false))
        _ = state.writeFlushed(now: t(0))
        #expect(answer(&state, bytes: 35_000, at: 0) == .writeResponse(closeAfter: true), "135 000 bytes ≥ 128 KiB")
    }

    /// A browser's page is never cut, however large: only answers given while the next request already waited count.
    @Test func theFirstAnswerAfterAWaitIsNeverThePipelinesEnd() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        #expect(answer(&state, bytes: 28_000_000, at: 0) == .writeResponse(closeAfter: false))
    }

    @Test func aClientThatWaitsForEachAnswerIsNeverCutOff() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        for second in 0..<50 {
            #expect(answer(&state, bytes: 60_000, at: Double(second)) == .writeResponse(closeAfter: false))
            #expect(state.writeFlushed(now: t(Double(second))) == .parseBuffered)
            state.waitingForPeer()
        }
    }

    /// Eviction sees an answer that waits on its peer as a slow reader even when it is the pipeline's last (it lingers
    /// after it): a peer that reads nothing must not become unevictable by pipelining.
    @Test func thePipelinesLastAnswerWaitingOnItsPeerIsASlowReader() {
        var state = ConnectionState(policy: pipelinePolicy, now: t(0))
        _ = answer(&state, bytes: 100_000, at: 0)
        _ = state.writeFlushed(now: t(0))
        #expect(answer(&state, bytes: 100_000, at: 0) == .writeResponse(closeAfter: true))
        state.writeBlocked(now: t(1))
        #expect(state.standing == .sending(since: t(1), bytes: 0))
    }
}
