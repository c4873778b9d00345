import Testing

@testable import HTTPServer

/// Issue 23 point 2 over a socket: a pipeline of large answers ends at the byte bound with `Connection: close`.
extension ConnectionTests {
    @Test func aPipelineOfLargeAnswersGetsItsAnswersUpToTheBoundThenAClose() async throws {
        let page = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000)
        var router = Router()
        router.get("/page") { _, _ in Response(body: page) }
        try await LiveServer.with(responder: router) { server in
            let client = try TestClient(port: server.port)
            try client.send(String(repeating: "GET /page HTTP/1.1\r\nHost: x\r\n\r\n", count: 10))
            // 50 000 + 50 000 bytes stay under 128 KiB; the third answer reaches it and is the last.
            for _ in 0..<2 {
                let response = try await client.readResponse()
                #expect(response.body.count == page.count && response.headers["Connection"] == nil)
            }
            let last = try await client.readResponse()
            #expect(last.body.count == page.count)
            #expect(last.headers["Connection"] == "close")
            #expect(await client.readToEnd().end == .closed)
        }
    }
}
