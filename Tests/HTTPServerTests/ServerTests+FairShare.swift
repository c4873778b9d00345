import Logging
import Synchronization
import Testing

@testable import HTTPServer

/// Fair at the cap across addresses (issue 23): a newcomer from a smaller holder takes one of the largest holder's
/// connections even when they are all "busy" in ways that cost little to end, and a peer that does not read its
/// answers is bounded.
extension ServerTests {
    /// A router whose `/poll` parks until interrupted and whose `/upstream` waits on a pretend upstream.
    static var waitingRouter: Router {
        var router = LiveServer.testRouter
        router.get("/poll") { _, context in
            let interrupted = await context.activity.parked(since: .now) { () async -> Bool in
                do {
                    try await Task.sleep(for: .seconds(120))
                    return false
                } catch {
                    return true
                }
            }
            return .text(interrupted ? "304 now" : "timed out")
        }
        router.get("/upstream") { _, context in
            try await context.activity.waitingOnUpstream(since: .now) { try await Task.sleep(for: .seconds(120)) }
            return .text("late")
        }
        return router
    }

    func isParked(_ standing: ConnectionState.Standing) -> Bool {
        if case .parked = standing { true } else { false }
    }

    /// Two parked polls from 127.0.0.1 fill a cap of 2: a newcomer from 127.0.0.2 is served, and the oldest poll
    /// is answered at once with `Connection: close` instead of being cut off.
    @Test func aParkedPollOfTheLargestHolderIsAnsweredToMakeRoom() async throws {
        try await LiveServer.with(capped(at: 2), responder: Self.waitingRouter) { server in
            let first = try TestClient(port: server.port, source: "127.0.0.1")
            try first.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n")
            try await LiveServer.until("one parked poll") { server.standings.filter(isParked).count == 1 }
            let second = try TestClient(port: server.port, source: "127.0.0.1")
            try second.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n")
            try await LiveServer.until("two parked polls") { server.standings.filter(isParked).count == 2 }

            let newcomer = try TestClient(port: server.port, source: "127.0.0.2")
            try newcomer.send(Self.get)
            #expect(try await newcomer.readResponse().text == "served")
            let answered = try await first.readResponse()
            #expect(answered.text == "304 now")
            #expect(answered.headers["Connection"] == "close")
            #expect(await first.readToEnd().end == .closed)
        }
    }

    /// A handler waiting on a hanging upstream is given up for a newcomer from a smaller holder.
    @Test func aHandlerWaitingOnTheUpstreamIsGivenUpForASmallerHolder() async throws {
        try await LiveServer.with(capped(at: 1), responder: Self.waitingRouter) { server in
            let waiting = try TestClient(port: server.port, source: "127.0.0.1")
            try waiting.send("GET /upstream HTTP/1.1\r\nHost: x\r\n\r\n")
            try await LiveServer.until("waiting on the upstream") {
                server.standings.contains { if case .waitingOnUpstream = $0 { true } else { false } }
            }
            let newcomer = try TestClient(port: server.port, source: "127.0.0.2")
            try newcomer.send(Self.get)
            #expect(try await newcomer.readResponse().text == "served")
            #expect(await waiting.readToEnd() == ([], .closed))
        }
    }

    /// The largest holder cannot push out a smaller one: at the cap its newcomer gets 503 while the other
    /// address's idle connection stays.
    @Test func theLargestHolderCannotTakeASmallerHoldersIdleConnection() async throws {
        try await LiveServer.with(capped(at: 3), responder: Self.waitingRouter) { server in
            let idle = try TestClient(port: server.port, source: "127.0.0.2")
            try idle.send(Self.get)
            _ = try await idle.readResponse()
            var polls: [TestClient] = []
            for count in 1...2 {
                let poll = try TestClient(port: server.port, source: "127.0.0.1")
                try poll.send("GET /upstream HTTP/1.1\r\nHost: x\r\n\r\n")
                polls.append(poll)
                try await LiveServer.until("\(count) waiting") {
                    server.standings.filter { if case .waitingOnUpstream = $0 { true } else { false } }.count == count
                }
            }
            // 127.0.0.1 holds 2, 127.0.0.2 holds 1: a third from 127.0.0.1 may only take its own.
            let newcomer = try TestClient(port: server.port, source: "127.0.0.1")
            try newcomer.send(Self.get)
            #expect(try await newcomer.readResponse().text == "served")
            try idle.send(Self.get)
            #expect(try await idle.readResponse().text == "served")
        }
    }

    /// Issue 23's pipelined slow reader: 50 requests pipelined and nothing read. The server does not read the
    /// pipeline on while an answer waits (one answer queued), and the peer below the minimum send rate loses the
    /// connection once the grace is over.
    @Test func aPipeliningPeerThatDoesNotReadIsBoundedAndClosed() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.connection.minimumSendRate = 10_000_000
        configuration.connection.sendRateGracePeriod = .milliseconds(200)
        configuration.sendBufferBytes = 4096
        let calls = Mutex(0)
        var router = Router()
        router.get("/big") { _, _ in
            calls.withLock { $0 += 1 }
            return Response(status: .ok, body: [UInt8](repeating: 0x61, count: 4 << 20))
        }
        try await LiveServer.with(configuration, responder: router) { server in
            let client = try TestClient(port: server.port)
            try client.send(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 50))
            try await LiveServer.until("the first answer") { calls.withLock { $0 } == 1 }
            try await LiveServer.until("the slow reader closed") { server.connectionCount == 0 }
            #expect(calls.withLock { $0 } == 1)
        }
    }
}

/// The access log under a flood of identical answers (issue 23).
extension ServerTests {
    /// Ten identical answers to one address: the first is logged, the other nine are one line with their count,
    /// written when their second is over even if nothing else is logged. The ten are pipelined in one write, so
    /// even a loaded machine answers them within a second or two (one request and answer at a time could take
    /// longer than a second each there, and then nothing would be summed).
    @Test func repeatedIdenticalAnswersToOneAddressAreSummedIntoOneLine() async throws {
        let (logger, capture) = Logger.capturing(label: "http", level: .info)
        try await LiveServer.with(responder: LiveServer.testRouter, logger: logger) { server in
            let client = try TestClient(port: server.port, source: "127.0.0.10")
            try client.send(String(repeating: Self.get, count: 10))
            for _ in 0..<10 { _ = try await client.readResponse() }
            try await LiveServer.until("the summary lines") { Self.accounted(capture.lines) == 10 }
        }
        let written = capture.lines.filter { $0.contains("http.path=/echo/served") && $0.contains(": request ") }
        // A second boundary may fall among the ten: then two ordinary lines and two summaries, and so on.
        #expect(Self.accounted(capture.lines) == 10)
        #expect(written.count < 10)
        #expect(capture.lines.contains { $0.contains("request repeated") })
    }

    /// Requests of `/echo/served` the access-log lines account for: one per ordinary line, `repeated=N` per summary.
    static func accounted(_ lines: [String]) -> Int {
        lines.filter { $0.contains("http.path=/echo/served") }.reduce(0) { total, line in
            let repeated = line.split(separator: " ").first { $0.hasPrefix("repeated=") }
            return total + (repeated.flatMap { Int($0.dropFirst(9)) } ?? 1)
        }
    }
}
