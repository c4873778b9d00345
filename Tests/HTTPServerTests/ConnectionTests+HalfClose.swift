import Foundation
import Logging
import TestSupport
import Testing

@testable import HTTPServer

/// A client that half-closes (`shutdown(SHUT_WR)`, `nc -N`) after its requests still gets every answer, then the close.
extension ConnectionTests {
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
