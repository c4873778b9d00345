import Testing

@testable import HTTPServer

/// Behind a trusted proxy (issue 46 point 3): every visitor arrives from the proxy's one address, so its connections
/// are bounded by the cap alone and count under the client each request is forwarded for.
extension ServerTests {
    /// A cap of `maxConnections`, one connection per address, with 127.0.0.1 a trusted proxy.
    func behindAProxy(cap maxConnections: Int) -> ServerConfiguration {
        var configuration = capped(at: maxConnections, perClient: 1)
        configuration.trustedProxy = { $0 == IPAddress("127.0.0.1") }
        return configuration
    }

    static func poll(for client: String) -> String {
        "GET /poll HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: \(client)\r\n\r\n"
    }

    /// Two polls of one forwarded client through the proxy are both held although an address may hold one
    /// connection; at the cap, another forwarded client's request takes one of them: the largest holder is the
    /// forwarded client, not the proxy.
    @Test func aTrustedProxyIsBoundedByTheCapAndItsConnectionsCountByTheForwardedClient() async throws {
        try await LiveServer.with(behindAProxy(cap: 2), responder: Self.waitingRouter) { server in
            // Both connected before either sends a request: they count under the proxy's own address until then.
            let first = try TestClient(port: server.port, source: "127.0.0.1")
            let second = try TestClient(port: server.port, source: "127.0.0.1")
            try first.send(Self.poll(for: "10.0.0.1"))
            try await LiveServer.until("one parked poll") { server.standings.filter(isParked).count == 1 }
            try second.send(Self.poll(for: "10.0.0.1"))
            try await LiveServer.until("two parked polls") { server.standings.filter(isParked).count == 2 }
            #expect(server.state.withLock { $0.table.count(of: "10.0.0.1") } == 2)
            #expect(server.state.withLock { $0.table.count(of: "127.0.0.1") } == 0)

            let quiet = try TestClient(port: server.port, source: "127.0.0.1")
            try quiet.send("GET /echo/served HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.0.0.2\r\n\r\n")
            #expect(try await quiet.readResponse().text == "served")
            #expect(try await first.readResponse().text == "304 now")
        }
    }

    /// Anyone else's `X-Forwarded-For` is not believed: the peer's own address is limited as before.
    @Test func anUntrustedPeerIsLimitedByItsOwnAddressWhateverItForwards() async throws {
        try await LiveServer.with(behindAProxy(cap: 8), responder: Self.waitingRouter) { server in
            let first = try TestClient(port: server.port, source: "127.0.0.2")
            try first.send(Self.poll(for: "10.0.0.1"))
            try await LiveServer.until("one parked poll") { server.standings.filter(isParked).count == 1 }
            #expect(server.state.withLock { $0.table.count(of: "127.0.0.2") } == 1)
            let second = try TestClient(port: server.port, source: "127.0.0.2")
            try second.send(Self.poll(for: "10.0.0.9"))
            #expect(String(decoding: await second.readToEnd().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
        }
    }
}
