import Testing

@testable import HTTPServer

/// Live checks that the real read path feeds `ConnectionState` what its pure tests assume: the EOF behind
/// pipelined requests is read only once they are answered, so a client that half-closes (`shutdown(SHUT_WR)`,
/// `nc -N`) after its requests still gets every answer, then the close; and `100 Continue` is the parser's decision.
extension ConnectionTests {
    /// Half-closed behind a complete request and part of another: the first is answered, the second can never
    /// complete, so the connection closes with no further answer.
    @Test func halfCloseBehindAnIncompleteRequestClosesAfterTheCompleteOnesAreAnswered() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /echo/one HTTP/1.1\r\nHost: x\r\n\r\nGET /echo/tw")
            client.shutdownWrite()
            #expect(try await client.readResponse().text == "one")
            let (bytes, end) = await client.readToEnd()
            #expect(bytes.isEmpty)
            #expect(end == .closed)
        }
    }

    /// RFC 9110 §10.1.1: an HTTP/1.0 client never waits for `100 Continue` and must not get one; it gets only
    /// the final answer.
    @Test func http10ExpectContinueGetsNoInterimAnswer() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("POST /upload HTTP/1.0\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello")
            let (bytes, end) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(!text.contains("100 Continue"))
            #expect(text.hasSuffix("\r\n\r\ngot 5 bytes"))
            #expect(end == .closed)
        }
    }

    @Test func clientHalfCloseAfterRequestStillGetsTheAnswer() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            #expect(try await client.readResponse().text == "slow")
            #expect(await client.readToEnd().end == .closed)
        }
    }

    /// Requests pipelined before a half-close are all answered before the connection closes: input is only
    /// read between responses, so the EOF behind them is seen last.
    @Test func pipelinedRequestsBeforeAHalfCloseAreAllAnswered() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send(
                "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /echo/two HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /echo/three HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            #expect(try await client.readResponse().text == "slow")
            #expect(try await client.readResponse().text == "two")
            #expect(try await client.readResponse().text == "three")
            #expect(await client.readToEnd().end == .closed)
        }
    }

    /// Regression: pipelined requests followed by a half-close (`nc -N`) got one answer and a close.
    @Test func clientHalfCloseAfterPipelinedRequestsGetsEveryAnswer() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send((0..<5).map { "GET /echo/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            client.shutdownWrite()
            for index in 0..<5 {
                #expect(try await client.readResponse().text == "\(index)")
            }
            #expect(await client.readToEnd().end == .closed)
        }
    }
}
