import Foundation
import Logging
import TestSupport
import Testing

@testable import HTTPServer

/// The deadlines and caps live: a head that never ends gets 408, an idle keep-alive connection is closed silently, and
/// a connection ends after its last allowed request.
extension ConnectionTests {
    /// Slowloris: a client that never finishes its head gets 408 and is closed, while another is served.
    /// The clients run on a thread of their own, so the timing is the server's, not the cooperative pool's
    /// (parallel CPU-heavy tests can keep it busy for seconds).
    @Test func slowHeadIsClosedByTheHeaderDeadlineWhileOthersAreServed() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.connection.headerTimeout = .milliseconds(400)
        configuration.connection.lingerTimeout = .milliseconds(100)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let port = server.port
            let (fastText, bytes, end, elapsed) = try await onOwnThread {
                let slow = try TestClient(port: port)
                try slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
                let started = ContinuousClock.now
                let fast = try TestClient(port: port)
                try fast.send("GET /echo/fast HTTP/1.1\r\nHost: x\r\n\r\n")
                let fastText = try fast.readResponseBlocking(bodyExpected: true).text
                try slow.send("X-Trickle: 1\r\n")
                let (bytes, end) = slow.readToEndBlocking()
                return (fastText, bytes, end, ContinuousClock.now - started)
            }
            #expect(fastText == "fast")
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(end == .closed)
            // The lower bound shows the deadline (not an error) closed it; the upper bound only guards a hang:
            // a loaded shared machine can add seconds without the server being wrong.
            #expect(elapsed >= .milliseconds(350) && elapsed < .seconds(60))
        }
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.connection.idleTimeout = .milliseconds(300)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.readResponse()
            let (bytes, end) = await client.readToEnd()
            #expect(bytes.isEmpty)
            #expect(end == .closed)
        }
    }

    @Test func connectionClosesAfterMaxRequests() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.connection.maxRequests = 2
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().headers["Connection"] == nil)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().headers["Connection"] == "close")
            #expect(await client.readToEnd().end == .closed)
        }
    }
}
