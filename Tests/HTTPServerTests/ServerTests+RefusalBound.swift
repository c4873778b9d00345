import Testing

@testable import HTTPServer

/// The bound on the 503s themselves (`Server.refuse`): answering a refused client costs a connection too, so at most
/// max(16, cap / 8) are answered at once and any newcomer beyond them is closed without a word.
extension ServerTests {
    @Test(.timeLimit(.minutes(3)))
    func refusalsAreAnswered503UpToAnEighthOfTheCapThenPlainlyClosed() async throws {
        // One connection per address, a cap of 160: the 503s are bounded at 20 (not the floor of 16). The refused
        // connections linger for a hang guard's time, waiting for their client to close, so each keeps its place.
        var configuration = capped(at: 160, perClient: 1)
        configuration.connection.lingerTimeout = .seconds(120)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let served = try TestClient(port: server.port)
            try served.send(Self.get)
            #expect(try await served.readResponse().text == "served")
            var refused: [TestClient] = []
            for _ in 0..<20 {
                let client = try TestClient(port: server.port)
                #expect(try await client.readResponse().status == 503)
                refused.append(client)
            }
            let beyond = try TestClient(port: server.port)
            let (bytes, end) = await beyond.readToEnd()
            #expect(bytes.isEmpty, "closed without a 503")
            #expect(end == .closed || end == .reset)

            // One refused client goes: once the server has closed its side too, a newcomer is answered 503 again.
            refused.removeFirst().shutdownWrite()
            var answered = false
            for _ in 0..<1200 where !answered {
                let client = try TestClient(port: server.port)
                // A 503 lingers until its client closes, so only its head is read; a plain close throws.
                answered = (try? await client.readResponse())?.status == 503
                if answered { client.shutdownWrite() }
                if !answered { try await Task.sleep(for: .milliseconds(100)) }  // a hang guard's pace, not a bound
            }
            #expect(answered)
            for client in refused { client.shutdownWrite() }
        }
    }
}
