import Foundation
import TestSupport
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

    /// Shutdown lets an in-flight request finish and closes idle connections. The handler holds the request until
    /// shutdown has begun (a gate, not a sleep: on a loaded machine a 300 ms handler could finish before a test's
    /// 50 ms pause ended). That the answer then says `Connection: close` is the state machine's decision, tested in
    /// `ConnectionStateTests.shutdownLetsInFlightResponseFinishWithClose`; here the whole path is checked.
    @Test func shutdownFinishesInFlightRequestsAndClosesIdleOnes() async throws {
        let entered = Gate()
        let release = Gate()
        var router = LiveServer.testRouter
        router.get("/held") { _, _ in
            entered.open()
            await release.wait()
            return .text("held")
        }
        let server = Server(configuration: LiveServer.patientConfiguration, responder: router, logger: .silent)
        try server.start()
        let idle = try TestClient(port: server.port)
        try idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await idle.readResponse()
        let busy = try TestClient(port: server.port)
        try busy.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        await entered.wait()

        async let stopped: Void = server.shutdown()
        #expect(await idle.readToEnd().end == .closed)
        release.open()
        let response = try await busy.readResponse()
        await stopped
        #expect(response.text == "held")
        #expect(await busy.readToEnd().end == .closed)
        #expect(server.connectionCount == 0)
        #expect(throws: (any Error).self) { try TestClient(port: server.port) }
        await server.waitUntilStopped()
    }

    /// A handler that never finishes on its own (it waits on a gate the test opens only afterwards) is cut off
    /// when the grace period ends: the client sees the socket close with no answer.
    @Test func shutdownForceClosesAfterTheGracePeriod() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.shutdownGracePeriod = .milliseconds(100)
        let entered = Gate()
        let release = Gate()
        var router = Router()
        router.get("/forever") { _, _ in
            entered.open()
            await release.wait()
            return .text("late")
        }
        let server = Server(configuration: configuration, responder: router, logger: .silent)
        try server.start()
        let client = try TestClient(port: server.port)
        try client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        await entered.wait()
        await server.shutdown()
        #expect(await client.readToEnd().bytes.isEmpty)
        #expect(server.connectionCount == 0)
        release.open()
    }
}
