import Testing

@testable import HTTPServer

/// Chunked request bodies (RFC 9112 §7.1), fed whole and split at every byte boundary.
@Suite struct ChunkedBodyTests {
    /// A chunked POST with `chunks` spelled out after the head.
    static func request(_ chunks: String) -> String {
        "POST /log HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
    }

    @Test func joinsSeveralChunks() {
        let outcome = ParserDriver.parse(Self.request("5\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\n\r\n"))
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.body) == [Array("hello 0123456789".utf8)])
        #expect(outcome.phase == .idle)
    }
}
