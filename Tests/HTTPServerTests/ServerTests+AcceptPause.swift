import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Out of file descriptors (EMFILE), the listening socket stays readable: the server stops accepting for 100 ms of
/// its clock instead of spinning on it, then takes the waiting connections.
extension ServerTests {
    @Test(.timeLimit(.minutes(3)))
    func acceptingPausesForATenthOfASecondOfItsClockAfterEMFILEThenResumes() async throws {
        let clock = ManualClock()
        let calls = Mutex(0)
        // The first accept fails as a process out of descriptors would; the rest are the real one.
        let server = Server(
            configuration: capped(at: 64), responder: LiveServer.testRouter, logger: .silent, clock: clock,
            accept: { fd in
                let first = calls.withLock { calls in
                    calls += 1
                    return calls == 1
                }
                return first ? .failure(Socket.Failure(operation: "accept", code: EMFILE)) : Socket.accept(fd)
            })
        try server.start()
        let client = try TestClient(port: server.port)
        try client.send(Self.get)
        // The pause is a timer on the server's clock; once it is armed, the accept source is already suspended.
        await eventually("the pause armed") { clock.sleeperCount == 1 }
        #expect(calls.withLock { $0 } == 1 && server.connectionCount == 0, "nothing accepted during the pause")
        clock.advance(by: .milliseconds(100))
        #expect(try await client.readResponse().text == "served")
        #expect(calls.withLock { $0 } >= 2)
        client.shutdownWrite()
        // Shutdown's grace period is on the manual clock too: move it until the server is down.
        let finished = Mutex(false)
        let down = Task {
            await server.shutdown()
            finished.withLock { $0 = true }
        }
        while !finished.withLock({ $0 }) {
            clock.advance(by: .seconds(1))
            try await Task.sleep(for: .milliseconds(10))  // a hang guard's pace, not a bound
        }
        await down.value
    }
}
