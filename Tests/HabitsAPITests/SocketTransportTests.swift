import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HabitsAPI

@Suite struct SocketTransportTests {
    @Test func reusesOneKeepAliveConnectionForSequentialCalls() async throws {
        let server = try HabitsClientTests.fixtureServer()
        defer { server.stop() }
        let (client, transport) = HabitsClientTests.client(.socket, port: server.port)
        for _ in 0..<20 { _ = try await client.categories() }
        #expect(transport?.connectionsOpened == 1)
        #expect(server.connectionCount == 1)
    }

    /// Regression (issue 8): the pool's clock may read earlier than a connection's stamp (another thread put it
    /// back after the taker read the clock). That must mean "fresh", not an arithmetic-overflow trap.
    @Test func reusesAPooledConnectionStampedAfterTheClockReading() async throws {
        let server = try HabitsClientTests.fixtureServer()
        defer { server.stop() }
        let clock = ManualClock()
        let (client, transport) = HabitsClientTests.client(.socket, port: server.port, clock: clock)
        _ = try await client.categories()
        clock.advance(by: .seconds(-1))
        _ = try await client.categories()
        #expect(transport?.connectionsOpened == 1)
    }

    @Test func retiresAPooledConnectionIdleForMaxIdleTime() async throws {
        let server = try HabitsClientTests.fixtureServer()
        defer { server.stop() }
        let clock = ManualClock()
        let (client, transport) = HabitsClientTests.client(.socket, port: server.port, clock: clock)
        _ = try await client.categories()
        clock.advance(by: .seconds(4))
        _ = try await client.categories()
        #expect(transport?.connectionsOpened == 2)
    }

    @Test func opensAFreshConnectionWhenTheServerClosesAfterEachAnswer() async throws {
        // The server closes without saying so (no Connection: close), the worst case for a pooled connection.
        let body = Array("[]".utf8)
        let server = try LoopbackServer { _ in LoopbackServer.json(body, close: true) }
        defer { server.stop() }
        let (client, transport) = HabitsClientTests.client(.socket, port: server.port)
        for _ in 0..<5 {
            #expect(try await client.categories().isEmpty)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(transport?.connectionsOpened == 5)
    }

    @Test func retriesAGetOnceWhenAPooledConnectionDiesUnnoticed() async throws {
        // Answers once per connection, then drops the next request on the floor by closing.
        let counter = Counter()
        let server = try LoopbackServer { _ in
            counter.increment() % 2 == 0 ? LoopbackServer.json(Array("[]".utf8)) : .bytes([], close: true)
        }
        defer { server.stop() }
        let (client, transport) = HabitsClientTests.client(.socket, port: server.port)
        #expect(try await client.categories().isEmpty)
        #expect(try await client.categories().isEmpty)  // first attempt dies on the pooled socket; retried
        #expect(transport?.connectionsOpened == 2)
    }

    /// Calls to a slow upstream run at once up to the call limit, not about as many as there are cores (Dispatch's
    /// width for a concurrent queue's blocking items, which it widens by about one thread a second): the server holds
    /// every request until all have arrived. They arrive within milliseconds; the 5 s are a hang guard, and a
    /// concurrent queue had let about 10 of the 15 in by then on 2 cores.
    @Test func slowCallsAreAllInFlightAtOnceUpToTheCallLimit() async throws {
        let calls = 15
        let arrived = ArrivalCount()
        let server = try LoopbackServer { _ in
            arrived.arriveAndWait(for: calls, hangGuard: 5)
            return LoopbackServer.json(Array("[]".utf8))
        }
        defer { server.stop() }
        let (_, transport) = HabitsClientTests.client(.socket, port: server.port, timeout: .seconds(120))
        let transportInUse = try #require(transport)
        #expect(calls < transportInUse.configuration.maxConcurrentCalls)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<calls {
                group.addTask {
                    try await transportInUse.send(HTTPClientRequest(method: .get, target: "/habits/\(index)")).status
                        .code
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(arrived.most == calls)
    }

    @Test func doesNotRetryAPost() async throws {
        let counter = Counter()
        let server = try LoopbackServer { _ in
            counter.increment() == 0 ? LoopbackServer.json(Array("[]".utf8)) : .bytes([], close: true)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        _ = try await client.categories()
        let event = LoggedHabit(userID: "activeUser", habitName: "Yoga", timestamp: Date())
        await #expect(throws: HabitsAPIError.self) { try await client.log(event) }
        #expect(server.received.filter { $0.method == "POST" }.count == 1)
    }

    @Test func readsChunkedAndCloseDelimitedAnswers() async throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n1\r\n]\r\n0\r\n\r\n".utf8)
        let closeDelimited = Array("HTTP/1.0 200 OK\r\n\r\n[]".utf8)
        let counter = Counter()
        let server = try LoopbackServer { _ in
            counter.increment() == 0 ? .bytes(chunked, close: false) : .bytes(closeDelimited, close: true)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        #expect(try await client.categories().isEmpty)
        #expect(try await client.categories().isEmpty)
    }

    @Test func reportsAMalformedAnswerAsTransport() async throws {
        let server = try LoopbackServer { _ in
            .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n".utf8), close: true)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        await #expect(throws: HabitsAPIError.transport("bad response: invalid Content-Length")) {
            try await client.categories()
        }
    }

    /// A listener that never accepts, with its backlog full: new SYNs are dropped, so connecting hangs.
    @Test func givesUpConnectingAfterTheConnectTimeout() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        var fillers: [Socket] = []
        defer { for filler in fillers { filler.close() } }
        var hung = false
        for _ in 0..<8 where !hung {
            do {
                // A generous deadline: on a loaded machine a connect with backlog room can still take a while to
                // be observed, and mistaking that for a full backlog would make the test below meaningless.
                fillers.append(try Socket.connect(host: "127.0.0.1", port: port, deadline: Socket.now() + .seconds(1)))
            } catch {
                hung = true
            }
        }
        try #require(hung, "the backlog never filled; cannot test a hanging connect here")
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: port)
        configuration.connectTimeout = .milliseconds(200)
        // Only a hang guard: with 3 s, a loaded machine once spent the whole total before the call started
        // ("timed out before the call could start"), and the connect timeout under test never ran.
        configuration.totalTimeout = .seconds(60)
        let client = HabitsClient(configuration: configuration)
        let start = ContinuousClock.now
        await #expect(throws: HabitsAPIError.transport("timed out waiting for connect to 127.0.0.1:\(port)")) {
            try await client.categories()
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(180))
        // The error text above already proves the connect timeout (not the total one) ended the call; shared CI
        // cores delay the hop to the cooperative threads (about 70 s with three CI runs and a release build side by
        // side on 2 cores), so the wall-clock bound only guards against a hang.
        #expect(elapsed < .seconds(300))
    }
}

/// How many requests the server's threads hold at once: each waits until `count` have arrived (or the hang guard).
/// Invariant: `waiting` and `highest` are touched only with `condition` locked.
private final class ArrivalCount: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private var highest = 0

    /// The most requests that were held at the same time.
    var most: Int {
        condition.lock()
        defer { condition.unlock() }
        return highest
    }

    func arriveAndWait(for count: Int, hangGuard: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        highest = max(highest, waiting)
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: hangGuard)
        while highest < count, condition.wait(until: deadline) {}
        waiting -= 1
    }
}
