import Glibc
import Testing

@testable import HTTPServer

/// Connection fairness (issue 8): one address cannot take every slot, and at the cap idle and slow connections
/// make room for a new client, while requests in progress are never cut off.
extension ServerTests {
    static let get = "GET /echo/served HTTP/1.1\r\nHost: x\r\n\r\n"

    /// A cap of `maxConnections` with deadlines far beyond any pause of a loaded test machine, so only the
    /// admission decides what closes.
    func capped(at maxConnections: Int, perClient: Int = 10) -> ServerConfiguration {
        var configuration = LiveServer.patientConfiguration
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerClient = perClient
        configuration.connection.idleTimeout = .seconds(120)
        configuration.connection.headerTimeout = .seconds(120)
        configuration.connection.lingerTimeout = .milliseconds(100)
        return configuration
    }

    func isIdle(_ standing: ConnectionState.Standing) -> Bool {
        if case .idle = standing { true } else { false }
    }

    func isReceiving(_ standing: ConnectionState.Standing) -> Bool {
        if case .receiving = standing { true } else { false }
    }

    @Test func oneAddressGets503BeyondItsShareWhileAnotherAddressIsServed() async throws {
        let configuration = capped(at: 1024, perClient: 2)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let first = try TestClient(port: server.port)
            let second = try TestClient(port: server.port)
            let third = try TestClient(port: server.port)
            try third.send(Self.get)
            let (bytes, end) = await third.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(text.contains("X-Content-Type-Options: nosniff\r\n"))
            #expect(end == .closed)

            let other = try TestClient(port: server.port, source: "127.0.0.2")
            try other.send(Self.get)
            #expect(try await other.readResponse().text == "served")
            for client in [first, second] {
                try client.send(Self.get)
                #expect(try await client.readResponse().text == "served")
            }
        }
    }

    @Test func theDefaultShareIsAQuarterOfTheCap() {
        #expect(ServerConfiguration().connectionsPerClientLimit == 256)
        #expect(ServerConfiguration(maxConnections: 100).connectionsPerClientLimit == 25)
        #expect(ServerConfiguration(maxConnectionsPerClient: 7).connectionsPerClientLimit == 7)
    }

    /// The per-client limit and the handlers' `RequestContext.peer` both come from this one reading of the socket.
    @Test func theClientAddressIsReadFromTheSocketAddressWithoutItsPort() throws {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = in_port_t(5123).bigEndian
        v4.sin_addr.s_addr = (127 << 24 | 1 as UInt32).bigEndian
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = in_port_t(80).bigEndian
        v6.sin6_addr.__in6_u.__u6_addr8.15 = 1
        var unix = sockaddr_storage()
        unix.ss_family = sa_family_t(AF_UNIX)
        let fromV4 = try #require(IPAddress(socketAddress: Self.storage(of: v4)))
        #expect(fromV4.description == "127.0.0.1")
        #expect(fromV4 == IPAddress("127.0.0.1:5123"))
        #expect(IPAddress(socketAddress: Self.storage(of: v6))?.description == "::1")
        #expect(IPAddress(socketAddress: unix) == nil)
    }

    static func storage<Address>(of address: Address) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
        return storage
    }

    @Test func aNewClientIsServedWhileTheCapIsFilledByIdleKeepAliveConnections() async throws {
        let configuration = capped(at: 2)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let oldest = try TestClient(port: server.port)
            try oldest.send(Self.get)
            _ = try await oldest.readResponse()
            try await LiveServer.until("the first connection idle") { server.standings.filter(isIdle).count == 1 }
            let newer = try TestClient(port: server.port)
            try newer.send(Self.get)
            _ = try await newer.readResponse()
            try await LiveServer.until("both connections idle") { server.standings.filter(isIdle).count == 2 }

            let newcomer = try TestClient(port: server.port)
            try newcomer.send(Self.get)
            #expect(try await newcomer.readResponse().text == "served")
            // The connection idle longest made room, silently (RFC 9112 §9.3.1: idle connections may close).
            #expect(await oldest.readToEnd() == ([], .closed))
            try newer.send(Self.get)
            #expect(try await newer.readResponse().text == "served")
        }
    }

    @Test func aNewClientIsServedWhileTheCapIsFilledBySlowSenders() async throws {
        let configuration = capped(at: 2)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let slow = try TestClient(port: server.port)
            let padding = String(repeating: "a", count: 2000)
            try slow.send("GET /echo/slow HTTP/1.1\r\nHost: x\r\nX-Padding: \(padding)\r\n")
            try await LiveServer.until("a slow sender") { server.standings.filter(isReceiving).count == 1 }
            let slower = try TestClient(port: server.port)
            try slower.send("G")
            try await LiveServer.until("two slow senders") { server.standings.filter(isReceiving).count == 2 }

            let newcomer = try TestClient(port: server.port)
            try newcomer.send(Self.get)
            #expect(try await newcomer.readResponse().text == "served")
            // The fewest bytes per second went: 1 byte against 2 000, each over at least a second.
            #expect(await slower.readToEnd() == ([], .closed))
            try slow.send("\r\n")
            #expect(try await slow.readResponse().text == "slow")
        }
    }

    /// A request whose handler is still running (a parked long-poll) is not "idle": at the cap with only such
    /// connections the newcomer gets 503, and the parked request is answered when its handler returns.
    @Test func requestsInProgressAreNeverClosedToMakeRoom() async throws {
        let configuration = capped(at: 1)
        let (release, releaser) = AsyncStream<Void>.makeStream()
        var router = LiveServer.testRouter
        router.get("/park") { _, _ in
            for await _ in release { break }
            return .text("parked")
        }
        try await LiveServer.with(configuration, responder: router) { server in
            let parked = try TestClient(port: server.port)
            try parked.send("GET /park HTTP/1.1\r\nHost: x\r\n\r\n")
            try await LiveServer.until("the handler running") { server.standings == [.handling] }

            let newcomer = try TestClient(port: server.port)
            try newcomer.send(Self.get)
            let (bytes, _) = await newcomer.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            releaser.yield()
            #expect(try await parked.readResponse().text == "parked")
        }
    }

    /// The body-rate deadline, live: a body trickling below the minimum rate is answered 408 once the grace
    /// period is over (the rate arithmetic itself is tested on `ConnectionState` with a fake clock).
    @Test func aBodyBelowTheMinimumRateGets408() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.connection.minimumBodyRate = 1_000_000
        configuration.connection.bodyRateGracePeriod = .milliseconds(100)
        configuration.connection.lingerTimeout = .milliseconds(100)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
            let (bytes, _) = await client.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        }
    }
}
