import Testing

@testable import HTTPServer

/// Every limit at exactly its value (accepted) and one byte over (refused with the agreed status).
@Suite struct RequestParserLimitTests {
    /// A request-line of exactly `length` bytes, CRLF excluded.
    static func requestLine(length: Int) -> String {
        "GET /" + String(repeating: "a", count: length - "GET / HTTP/1.1".utf8.count) + " HTTP/1.1"
    }

    @Test(arguments: [8192, 8193])
    func limitsTheRequestLineTo8KiB(length: Int) {
        let outcome = ParserDriver.parse(Self.requestLine(length: length) + "\r\nHost: h\r\n\r\n")
        if length <= 8192 {
            #expect(outcome.requests.first?.head.target.utf8.count == length - 13)
        } else {
            #expect(outcome.error == .requestLineTooLong)
            #expect(outcome.error?.status == .uriTooLong)
        }
    }

    @Test func refusesAnEndlessRequestLineBeforeItEnds() {
        #expect(ParserDriver.parse("GET /" + String(repeating: "a", count: 9000)).error == .requestLineTooLong)
    }

    @Test(arguments: [8192, 8193])
    func limitsOneFieldLineTo8KiB(length: Int) {
        let line = "X: " + String(repeating: "v", count: length - 3)
        let outcome = ParserDriver.parse("GET / HTTP/1.1\r\nHost: h\r\n\(line)\r\n\r\n")
        if length <= 8192 {
            #expect(outcome.requests.first?.headers["X"]?.utf8.count == length - 3)
        } else {
            #expect(outcome.error == .headerLineTooLong)
            #expect(outcome.error?.status == .requestHeaderFieldsTooLarge)
        }
    }

    /// 16 bytes of request-line, 9 of Host, 2 of the final CRLF, then four 8002-byte field lines and one
    /// filler line that brings the total to `total`.
    @Test(arguments: [32768, 32769])
    func limitsTheWholeHeadTo32KiB(total: Int) {
        var text = "GET / HTTP/1.1\r\nHost: h\r\n"
        for index in 0..<4 { text += "X\(index): " + String(repeating: "v", count: 8000 - 4) + "\r\n" }
        let filler = total - text.utf8.count - 2 - 2
        text += "Y: " + String(repeating: "w", count: filler - 3) + "\r\n\r\n"
        #expect(text.utf8.count == total)
        let outcome = ParserDriver.parse(text)
        if total <= 32768 {
            #expect(outcome.requests.count == 1)
            #expect(outcome.error == nil)
        } else {
            #expect(outcome.error == .headTooLarge)
            #expect(outcome.error?.status == .requestHeaderFieldsTooLarge)
        }
    }

    @Test(arguments: [100, 101])
    func limitsTheHeadTo100Fields(count: Int) {
        let fields = (1..<count).map { "X-\($0): \($0)\r\n" }.joined()
        let outcome = ParserDriver.parse("GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n")
        if count <= 100 {
            #expect(outcome.requests.first?.headers.count == count)
        } else {
            #expect(outcome.error == .tooManyHeaders)
            #expect(outcome.error?.status == .requestHeaderFieldsTooLarge)
        }
    }

    @Test func acceptsAContentLengthBodyOfExactly64KiB() {
        let body = String(repeating: "b", count: 65536)
        let outcome = ParserDriver.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 65536\r\n\r\n" + body)
        #expect(outcome.requests.first?.body.count == 65536)
    }

    /// Decided from the head alone: no byte of the body has been sent.
    @Test(arguments: ["65537", "99999999999999999999999999"])
    func answers413ToAContentLengthOverTheLimitBeforeReadingTheBody(length: String) {
        let outcome = ParserDriver.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(length)\r\n\r\n")
        #expect(outcome.error == .bodyTooLarge)
        #expect(outcome.error?.status == .payloadTooLarge)
    }

    @Test(arguments: [4096, 4097])
    func limitsAChunkSizeLineWithExtensionsTo4KiB(length: Int) {
        let line = "1;a=" + String(repeating: "e", count: length - 4)
        let outcome = ParserDriver.parse(RequestParserChunkedTests.request(line + "\r\nx\r\n0\r\n\r\n"))
        if length <= 4096 {
            #expect(outcome.requests.map(\.body) == [[UInt8(ascii: "x")]])
        } else {
            #expect(outcome.error == .chunkLineTooLong)
            #expect(outcome.error?.status == .badRequest)
        }
    }

    /// The trailer section counts its lines, their CRLFs and its final CRLF.
    @Test(arguments: [4096, 4097])
    func limitsTheTrailerSectionTo4KiB(total: Int) {
        let trailer = "T: " + String(repeating: "t", count: total - 4 - 3)
        let outcome = ParserDriver.parse(RequestParserChunkedTests.request("1\r\nx\r\n0\r\n\(trailer)\r\n\r\n"))
        if total <= 4096 {
            #expect(outcome.requests.map(\.body) == [[UInt8(ascii: "x")]])
        } else {
            #expect(outcome.error == .trailersTooLarge)
            #expect(outcome.error?.status == .requestHeaderFieldsTooLarge)
        }
    }

    @Test func acceptsAChunkedBodyOfExactly64KiB() {
        let chunk = "1000\r\n" + String(repeating: "c", count: 4096) + "\r\n"
        let outcome = ParserDriver.parse(
            RequestParserChunkedTests.request(String(repeating: chunk, count: 16) + "0\r\n\r\n"))
        #expect(outcome.requests.first?.body.count == 65536)
    }

    /// Refused at the size line that passes the limit, before its data arrives.
    @Test func answers413AsSoonAsAChunkedBodyPassesTheLimit() {
        let chunk = "1000\r\n" + String(repeating: "c", count: 4096) + "\r\n"
        let outcome = ParserDriver.parse(
            RequestParserChunkedTests.request(String(repeating: chunk, count: 16) + "1\r\n"))
        #expect(outcome.error == .bodyTooLarge)
        #expect(outcome.requests.isEmpty)
    }

    @Test func honoursCustomLimits() {
        let limits = RequestParser.Limits(headBytes: 40, bodyBytes: 2)
        #expect(ParserDriver.parse("GET / HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits).requests.count == 1)
        // 19 + 19 + 2 = 40 bytes fit exactly; one more is over.
        #expect(ParserDriver.parse("GET /abc HTTP/1.1\r\nHost: example.org\r\n\r\n", limits: limits).error == nil)
        #expect(
            ParserDriver.parse("GET /abc HTTP/1.1\r\nHost: example.orgx\r\n\r\n", limits: limits).error == .headTooLarge
        )
        let body = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n"
        #expect(ParserDriver.parse(body, limits: RequestParser.Limits(bodyBytes: 2)).error == .bodyTooLarge)
    }
}
