import Foundation
import Testing

@testable import HTTPServer

@Suite struct ServerTests {
    /// Beyond the cap, new connections get 503 and close; those already admitted keep being served.
    @Test func connectionsBeyondTheCapGet503() async throws {
        var configuration = LiveServer.patientConfiguration
        configuration.maxConnections = 2
        configuration.lingerTimeout = .milliseconds(100)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let first = try TestClient(port: server.port)
            let second = try TestClient(port: server.port)
            try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await first.readResponse()
            _ = try await second.readResponse()

            let third = try TestClient(port: server.port)
            try third.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let (bytes, end) = await third.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(end == .closed)

            try first.send("GET /echo/still-served HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await first.readResponse().text == "still-served")
        }
    }

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

    @Test func shutdownForceClosesAfterTheGracePeriod() async throws {
        var configuration = LiveServer.patientConfiguration
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
        // Far below the handler's 30 s (so the grace period, not the handler, ended it), far above 100 ms.
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(await client.readToEnd().bytes.isEmpty)
    }
}
