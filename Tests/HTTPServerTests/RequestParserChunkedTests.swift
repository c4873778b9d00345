import Testing

@testable import HTTPServer

/// The request parser on chunked request bodies (RFC 9112 §7.1), fed whole and split at every byte boundary (the
/// decoder itself is `ChunkedBody`, tested in HTTPCoreTests).
@Suite struct RequestParserChunkedTests {
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

    @Test func acceptsHexSizesInEitherCaseWithLeadingZeros() {
        let data = String(repeating: "z", count: 26)
        let outcome = ParserDriver.parse(Self.request("1a\r\n\(data)\r\n0001A\r\n\(data)\r\n000\r\n\r\n"))
        #expect(outcome.requests.first?.body.count == 52)
    }

    @Test func acceptsAnEmptyChunkedBody() {
        let outcome = ParserDriver.parse(Self.request("0\r\n\r\n"))
        #expect(outcome.requests.map(\.body) == [[]])
    }

    @Test(arguments: [
        "3;name\r\nabc\r\n0\r\n\r\n", "3;a=b;c=\"d;e\\\"f\"\r\nabc\r\n0;last\r\n\r\n",
        "3 ;a = b\r\nabc\r\n0\r\n\r\n", "3\t;\ta\r\nabc\r\n0\r\n\r\n",
    ])
    func ignoresWellFormedChunkExtensions(chunks: String) {
        let outcome = ParserDriver.parse(Self.request(chunks))
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.body) == [Array("abc".utf8)])
    }

    @Test func validatesAndDiscardsTrailers() {
        let outcome = ParserDriver.parse(Self.request("3\r\nabc\r\n0\r\nX-Sum: 1\r\nX-Other:\t2\r\n\r\n"))
        #expect(outcome.requests.map(\.body) == [Array("abc".utf8)])
        #expect(outcome.requests.first?.headers.contains("X-Sum") == false)
    }

    @Test(arguments: [
        ("X-Sum : 1", RequestParseError.whitespaceBeforeColon), (" folded", .obsoleteLineFolding),
        ("X-Sum: a\u{1}", .invalidFieldValue), ("NoColon", .missingColon),
    ])
    func refusesAMalformedTrailer(line: String, error: RequestParseError) {
        ParserDriver.expectRejection(Self.request("3\r\nabc\r\n0\r\n\(line)\r\n\r\n"), error)
    }

    @Test func keepsTheBytesAfterAChunkedRequestForTheNextOne() {
        let text = Self.request("2\r\nhi\r\n0\r\n\r\n") + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"
        let outcome = ParserDriver.parse(text)
        #expect(outcome.requests.map(\.head.target) == ["/log", "/next"])
        #expect(outcome.requests.map(\.body) == [Array("hi".utf8), []])
    }

    /// No sign, prefix, whitespace or empty size: each is a known chunked-smuggling disagreement.
    @Test(arguments: ["-5", "+5", " 5", "5 ", "0x5", "g", "", "5\t", "5 x", ";ext", "\u{FF15}"])
    func refusesAnInvalidChunkSize(size: String) {
        ParserDriver.expectRejection(Self.request("\(size)\r\nhello\r\n0\r\n\r\n"), .invalidChunkSize)
        #expect(RequestParseError.invalidChunkSize.status == .badRequest)
    }

    @Test(arguments: ["5;", "5;=x", "5;a=", "5;a=\"x", "5;a b", "5;a=b c", "5;a=\"\u{1}\"", "5;a ", "5;a=b "])
    func refusesAMalformedChunkExtension(line: String) {
        ParserDriver.expectRejection(Self.request("\(line)\r\nhello\r\n0\r\n\r\n"), .invalidChunkExtension)
    }

    @Test(arguments: ["3\r\nabcX\r\n0\r\n\r\n", "3\r\nabc\n0\r\n\r\n", "3\r\nabc\rX0\r\n\r\n", "3\r\nabcd\r\n"])
    func refusesChunkDataNotFollowedByCRLF(chunks: String) {
        ParserDriver.expectRejection(Self.request(chunks), .missingChunkTerminator)
    }

    @Test(arguments: ["3\nabc\r\n0\r\n\r\n", "3\r\nabc\r\n0\n\r\n", "3\r\nabc\r\n0\r\nX: 1\n\r\n"])
    func refusesABareLineFeedInChunkLines(chunks: String) {
        ParserDriver.expectRejection(Self.request(chunks), .bareLineFeed)
    }

    @Test(arguments: ["3\rabc\r\n0\r\n\r\n", "3;a\rb\r\nabc\r\n0\r\n\r\n", "3\r\nabc\r\n0\r\n\r\r\n"])
    func refusesABareCarriageReturnInChunkLines(chunks: String) {
        ParserDriver.expectRejection(Self.request(chunks), .bareCarriageReturn)
    }

    /// A size that overflows 64 bits is far past the body limit: 413, before any data.
    @Test(arguments: ["FFFFFFFFFFFFFFFFFFFF", "10001", "7FFFFFFFFFFFFFFF", "8000000000000000"])
    func refusesAnOversizedOrOverflowingChunk(size: String) {
        ParserDriver.expectRejection(Self.request("\(size)\r\n"), .bodyTooLarge)
    }
}
