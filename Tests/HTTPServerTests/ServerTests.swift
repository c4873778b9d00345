import Foundation
import Testing

@testable import HTTPServer

@Suite struct ServerTests {
    @Test func startFailsClearlyWhenThePortIsTaken() throws {
        let first = Server(configuration: ServerConfiguration(), responder: LiveServer.testRouter, logger: .silent)
        try first.start()
        let second = Server(
            configuration: ServerConfiguration(port: first.port), responder: LiveServer.testRouter, logger: .silent)
        #expect {
            try second.start()
        } throws: { error in
            String(describing: error).contains("Address already in use")
        }
    }

    /// Shutdown lets an in-flight request finish (with Connection: close) and closes idle connections.
    @Test func shutdownFinishesInFlightRequestsAndClosesIdleOnes() async throws {
        let server = Server(configuration: ServerConfiguration(), responder: LiveServer.testRouter, logger: .silent)
        try server.start()
        let idle = try TestClient(port: server.port)
        try idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await idle.readResponse()
        let busy = try TestClient(port: server.port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(50))

        await server.shutdown()
        let response = try await busy.readResponse()
        #expect(response.text == "slow")
        #expect(response.headers["Connection"] == "close")
        #expect(await idle.readToEnd().end == .closed)
        #expect(server.connectionCount == 0)
        #expect(throws: (any Error).self) { try TestClient(port: server.port) }
        await server.waitUntilStopped()
    }

    @Test func shutdownForceClosesAfterTheGracePeriod() async throws {
        var configuration = ServerConfiguration()
        configuration.shutdownGracePeriod = .milliseconds(100)
        var router = Router()
        router.get("/forever") { _, _ in
            try await Task.sleep(for: .seconds(30))
            return .text("late")
        }
        let server = Server(configuration: configuration, responder: router, logger: .silent)
        try server.start()
        let client = try TestClient(port: server.port)
        try client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        await server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(await client.readToEnd().bytes.isEmpty)
    }
}
