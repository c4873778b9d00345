import Foundation
import Logging
import TestSupport
import Testing

@testable import HTTPServer

/// Live tests over loopback sockets: one server per test on 127.0.0.1:0.
@Suite struct ConnectionTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            for word in ["one", "two", "three"] {
                try client.send("GET /echo/\(word) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == word)
                #expect(response.headers["Date"] != nil)
                #expect(response.headers["Connection"] == nil)
            }
        }
    }

    /// Pipelined requests sent in one write are answered in order, even when the first is the slowest.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send(
                "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /echo/b HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /echo/c HTTP/1.1\r\nHost: x\r\n\r\nGET /echo/d HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "slow")
            #expect(try await client.readResponse().text == "b")
            let head = try await client.readResponse(bodyExpected: false)
            #expect(head.status == 200 && head.headers["Content-Length"] == "1" && head.body.isEmpty)
            #expect(try await client.readResponse().text == "d")
        }
    }

    /// More pipelined bytes than the busy-read limit: reading pauses and resumes, nothing is lost or reordered.
    @Test func manyPipelinedRequestsAreAllAnsweredInOrder() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            let count = 900  // under the 1000-per-connection cap; ~110 KB of requests in one burst
            let padding = String(repeating: "p", count: 64)
            try client.send(
                (0..<count).map { "GET /echo/\($0) HTTP/1.1\r\nHost: x\r\nX-Pad: \(padding)\r\n\r\n" }.joined())
            for index in 0..<count {
                let response = try await client.readResponse()
                guard response.text == "\(index)" else {
                    Issue.record("response \(index) was '\(response.text)'")
                    return
                }
            }
        }
    }

    @Test func headGetsHeadersWithoutBody() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (bytes, end) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("Content-Length: 4\r\n"))
            #expect(text.hasSuffix("\r\n\r\n"))
            #expect(end == .closed)
        }
    }

    @Test func expectContinueGets100BeforeTheBody() async throws {
        // The test's own pause between reading 100 and sending the body is the cooperative pool's, which a loaded
        // machine can stretch past the body-rate grace period; the rate has tests of its own.
        var configuration = LiveServer.patientConfiguration
        configuration.connection.minimumBodyRate = 0
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = try await client.readResponse(bodyExpected: false)
            #expect(interim.status == 100)
            try client.send("hello")
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "got 5 bytes")
        }
    }

    @Test func connectionCloseIsHonouredAndTheSocketCloses() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /echo/bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.text == "bye")
            #expect(response.headers["Connection"] == "close")
            #expect(await client.readToEnd().end == .closed)
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let plain = try TestClient(port: server.port)
            try plain.send("GET / HTTP/1.0\r\n\r\n")
            #expect(try await plain.readResponse().text == "home")
            #expect(await plain.readToEnd().end == .closed)

            let kept = try TestClient(port: server.port)
            try kept.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await kept.readResponse().headers["Connection"] == "keep-alive")
            try kept.send("GET /echo/again HTTP/1.0\r\n\r\n")
            #expect(try await kept.readResponse().text == "again")
        }
    }

    /// A malformed request gets its status, `Connection: close`, and then the socket really closes.
    @Test func parseErrorIsAnsweredAndTheSocketCloses() async throws {
        try await LiveServer.with(responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
            let (bytes, end) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(text.contains("Connection: close\r\n"))
            #expect(end == .closed)
        }
    }

    @Test func handlerErrorsBecomeAGeneric500AndTheConnectionStaysUsable() async throws {
        let (logger, capture) = Logger.capturing()
        try await LiveServer.with(responder: LiveServer.testRouter, logger: logger) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 500)
            #expect(response.text == "Internal Server Error")
            try client.send("GET /echo/still HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "still")
        }
        #expect(capture.lines.contains { $0.contains("handler failed") && $0.contains("error=") })
    }

    @Test func everyRequestGetsOneAccessLogLine() async throws {
        let (logger, capture) = Logger.capturing()
        try await LiveServer.with(responder: LiveServer.testRouter, logger: logger) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /echo/logged?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.readResponse()
        }
        let lines = capture.lines.filter { $0.contains(" request ") }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        for part in [
            "http.method=GET", "http.path=/echo/logged", "http.status=200", "http.bytes=6", "duration.ms=",
            "request.id=",
        ] {
            #expect(line.contains(part), "\(part) missing from \(line)")
        }
    }

    @Test func aHandlersLogLinesCarryTheIDOfItsRequestsAccessLogLine() async throws {
        let (logger, capture) = Logger.capturing()
        var router = LiveServer.testRouter
        router.get("/chatty") { _, context in
            context.logger.notice("handler says")
            return .text("ok")
        }
        try await LiveServer.with(responder: router, logger: logger) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /chatty HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.readResponse()
        }
        func requestID(of line: String?) -> Substring? {
            line?.split(separator: " ").first { $0.hasPrefix("request.id=") }
        }
        let handlerID = requestID(of: capture.lines.first { $0.contains("handler says") })
        let accessID = requestID(of: capture.lines.first { $0.contains(" request ") })
        #expect(handlerID != nil && handlerID == accessID)
    }

    /// A handler's field that would split the response is never sent: the client gets a bare 500, the log says
    /// why, and the connection stays usable.
    @Test func responseWithAnInjectedHeaderBecomes500() async throws {
        let (logger, capture) = Logger.capturing()
        var router = LiveServer.testRouter
        router.get("/inject") { _, _ in
            var response = Response.text("hi")
            response.headers.add(name: "X-Bad", value: "a\r\nSet-Cookie: evil=1")
            return response
        }
        try await LiveServer.with(responder: router, logger: logger) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /inject HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 500)
            #expect(response.headers["Set-Cookie"] == nil && response.headers["X-Bad"] == nil)
            try client.send("GET /echo/after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "after")
        }
        #expect(capture.lines.contains { $0.contains("invalid response") && $0.contains("X-Bad") })
    }

    @Test func largeBodyIsWrittenCompletelyToASlowReader() async throws {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)
        var router = Router()
        router.get("/big") { _, _ in Response(body: big) }
        try await LiveServer.with(responder: router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            try await Task.sleep(for: .milliseconds(100))  // let the socket buffers fill: EAGAIN path
            let response = try await client.readResponse()
            #expect(response.body.count == big.count)
        }
    }

    /// Issue 8: an absolute-form target (RFC 9112 §3.2.2) was a 400; it is served by its path, and `OPTIONS *`
    /// (a 404) gets 204 with `Allow`. Both answers say nosniff.
    @Test func absoluteFormAndOptionsAsteriskAreAnswered() async throws {
        // Two requests on one connection: the idle timeout must outlast any pause of a loaded test machine.
        var configuration = ServerConfiguration()
        configuration.connection.idleTimeout = .seconds(120)
        try await LiveServer.with(configuration, responder: LiveServer.testRouter) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET http://127.0.0.1/echo/absolute?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.text == "absolute")
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            try client.send("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let options = try await client.readResponse()
            #expect(options.status == 204)
            #expect(options.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
            #expect(options.headers["X-Content-Type-Options"] == "nosniff")
        }
    }
}
