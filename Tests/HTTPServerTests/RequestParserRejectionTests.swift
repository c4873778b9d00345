import Testing

@testable import HTTPServer

/// One test per rule of RFC 9112 the parser enforces, each asserting the exact error and status, fed whole and
/// split at every byte boundary.
@Suite struct RequestParserRejectionTests {
    /// A request with `fields` (each ending in CRLF) under an ordinary request-line.
    static func head(_ fields: String, requestLine: String = "GET / HTTP/1.1") -> String {
        requestLine + "\r\n" + fields + "\r\n"
    }

    // MARK: - Request-line

    /// Single spaces between exactly three parts; anything else is malformed (the version check catches a
    /// stray fourth part).
    @Test(arguments: [
        ("GET /", RequestParseError.invalidRequestLine), ("GET  / HTTP/1.1", .invalidRequestLine),
        (" GET / HTTP/1.1", .invalidRequestLine), ("GET", .invalidRequestLine), ("GET / HTTP/1.1 x", .invalidVersion),
        ("GET /a b HTTP/1.1", .invalidVersion),
    ])
    func refusesAMalformedRequestLine(line: String, error: RequestParseError) {
        ParserDriver.expectRejection(line + "\r\nHost: h\r\n\r\n", error)
        #expect(error.status == .badRequest)
    }

    @Test(arguments: ["G(ET", "GET\t", "G\u{1}T", "GÉT", "G\"T", "G,T", "G@T", "G:T", "/"])
    func refusesNonTokenBytesInTheMethod(method: String) {
        ParserDriver.expectRejection(method + " / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod)
        #expect(RequestParseError.invalidMethod.status == .badRequest)
    }

    @Test(arguments: [
        "ftp://h/", "http:/h/", "http//h", "http://", "http:///x", "http://u@h/", "http://h\\x/", "h/x", "*", "%2F",
        "?x", "h:80", "/a\u{7F}", "/caf\u{E9}", "/a\u{1}b", "/a\tb", "/a#frag",
    ])
    func refusesATargetThatIsNotOriginForm(target: String) {
        ParserDriver.expectRejection("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget)
        #expect(RequestParseError.invalidTarget.status == .badRequest)
    }

    @Test func acceptsTheAsteriskFormOnlyForOptions() {
        let outcome = ParserDriver.parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.head.target) == ["*"])
        ParserDriver.expectRejection("OPTIONS *x HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget)
    }

    @Test(arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/3.0", "HTTP/9.1"])
    func answers505ToAnUnsupportedVersion(version: String) {
        ParserDriver.expectRejection("GET / \(version)\r\nHost: h\r\n\r\n", .unsupportedVersion)
        #expect(RequestParseError.unsupportedVersion.status == .httpVersionNotSupported)
    }

    @Test(arguments: ["HTTP/1", "http/1.1", "HTTP/1.1 ", "HTTP/11", "HTTP/1.1.1", "HTTP/a.b", "HTTP/1,1", "HTTPS/1.1"])
    func refusesAMalformedVersion(version: String) {
        ParserDriver.expectRejection("GET / \(version)\r\nHost: h\r\n\r\n", .invalidVersion)
        #expect(RequestParseError.invalidVersion.status == .badRequest)
    }

    @Test func toleratesAFewEmptyLinesBeforeTheRequestLineButNotMore() {
        let four = String(repeating: "\r\n", count: RequestParser.maxLeadingEmptyLines)
        #expect(ParserDriver.parse(four + "GET / HTTP/1.1\r\nHost: h\r\n\r\n").requests.count == 1)
        ParserDriver.expectRejection(four + "\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", .tooManyEmptyLines)
    }

    // MARK: - Line structure

    @Test(arguments: [
        "GET / HTTP/1.1\rX\r\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n\r\r\n",
    ])
    func refusesABareCarriageReturnInTheHead(text: String) {
        ParserDriver.expectRejection(text, .bareCarriageReturn)
    }

    @Test(arguments: [
        "GET / HTTP/1.1\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n\n",
        "\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nX: a\nb\r\nHost: h\r\n\r\n",
    ])
    func refusesABareLineFeedInTheHead(text: String) {
        ParserDriver.expectRejection(text, .bareLineFeed)
    }

    // MARK: - Field lines

    @Test(arguments: [" folded", "\tfolded"])
    func refusesObsoleteLineFolding(continuation: String) {
        ParserDriver.expectRejection(Self.head("Host: h\r\nX-A: a\r\n\(continuation)\r\n"), .obsoleteLineFolding)
    }

    @Test(arguments: ["Host : h", "Host\t: h", "Content-Length  : 0"])
    func refusesWhitespaceBeforeTheColon(line: String) {
        ParserDriver.expectRejection(Self.head("\(line)\r\n"), .whitespaceBeforeColon)
    }

    @Test(arguments: [": empty", "X(A): 1", "X A: 1", "X\"A: 1", "Caf\u{E9}: 1", "X/A: 1", "[X]: 1", "X@A: 1"])
    func refusesNonTokenBytesInAFieldName(line: String) {
        ParserDriver.expectRejection(Self.head("Host: h\r\n\(line)\r\n"), .invalidFieldName)
    }

    @Test func refusesAFieldLineWithoutAColon() {
        ParserDriver.expectRejection(Self.head("Host: h\r\nNoColonHere\r\n"), .missingColon)
    }

    @Test(arguments: [0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F] as [UInt8])
    func refusesControlBytesInAFieldValue(byte: UInt8) {
        let bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX: a".utf8) + [byte] + Array("b\r\n\r\n".utf8)
        #expect(ParserDriver.parse(bytes).error == .invalidFieldValue)
    }

    @Test func acceptsTabAndObsTextInAFieldValue() {
        let bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX: a\tb".utf8) + [0xC3, 0xA9, 0xFF] + Array("\r\n\r\n".utf8)
        #expect(ParserDriver.parse(bytes).requests.first?.headers["x"]?.hasPrefix("a\tb\u{E9}") == true)
    }

    // MARK: - Host

    @Test func refusesAnHTTP11RequestWithoutHost() {
        ParserDriver.expectRejection(Self.head("Accept: */*\r\n"), .missingHost)
    }

    @Test(arguments: ["Host: a\r\nHost: a\r\n", "Host: a\r\nhost: b\r\n", "Host: a\r\nX: 1\r\nHOST:\r\n"])
    func refusesMoreThanOneHost(fields: String) {
        ParserDriver.expectRejection(Self.head(fields), .duplicateHost)
        ParserDriver.expectRejection(Self.head(fields, requestLine: "GET / HTTP/1.0"), .duplicateHost)
    }

    @Test(arguments: ["a b", "a/b", "a@b", "a?b", "a#b", "a\\b", "a\"b"])
    func refusesAnInvalidHostValue(value: String) {
        ParserDriver.expectRejection(Self.head("Host: \(value)\r\n"), .invalidHost)
    }

    @Test(arguments: ["", "localhost", "127.0.0.1:8080", "[::1]:80", "xn--caf-dma.example"])
    func acceptsAValidOrEmptyHost(value: String) {
        #expect(ParserDriver.parse(Self.head("Host: \(value)\r\n")).requests.first?.headers["Host"] == value)
    }

    // MARK: - Framing

    @Test func refusesContentLengthWithTransferEncoding() {
        let fields = "Host: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n"
        ParserDriver.expectRejection(
            Self.head(fields, requestLine: "POST / HTTP/1.1"), .contentLengthWithTransferEncoding)
        let reversed = "Host: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n"
        ParserDriver.expectRejection(
            Self.head(reversed, requestLine: "POST / HTTP/1.1"), .contentLengthWithTransferEncoding)
    }

    @Test(arguments: ["Content-Length: 3\r\nContent-Length: 3\r\n", "Content-Length: 3\r\ncontent-length: 4\r\n"])
    func refusesADuplicateContentLength(fields: String) {
        ParserDriver.expectRejection(Self.head("Host: h\r\n" + fields), .duplicateContentLength)
    }

    @Test(arguments: ["3, 3", "3,3", "+3", "-1", "3 3", "0x3", "", "3a", "1e3", "3.0", "\u{FF13}"])
    func refusesAListOrInvalidContentLength(value: String) {
        ParserDriver.expectRejection(Self.head("Host: h\r\nContent-Length: \(value)\r\n"), .invalidContentLength)
    }

    @Test(arguments: ["gzip", "gzip, chunked", "identity", "deflate,chunked", "x-custom"])
    func answers501ToAnUnknownTransferCoding(value: String) {
        let text = Self.head("Host: h\r\nTransfer-Encoding: \(value)\r\n", requestLine: "POST / HTTP/1.1")
        ParserDriver.expectRejection(text, .unsupportedTransferCoding)
        #expect(RequestParseError.unsupportedTransferCoding.status == .notImplemented)
    }

    @Test(arguments: [
        "Transfer-Encoding: chunked, gzip\r\n", "Transfer-Encoding: chunked, chunked\r\n",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n",
    ])
    func refusesChunkedThatIsRepeatedOrNotLast(fields: String) {
        ParserDriver.expectRejection(
            Self.head("Host: h\r\n" + fields, requestLine: "POST / HTTP/1.1"), .chunkedNotFinal)
    }

    @Test(arguments: ["", ",", " , ", "chunked;q=1", "\"chunked\"", "chunked/1"])
    func refusesAMalformedTransferEncoding(value: String) {
        let text = Self.head("Host: h\r\nTransfer-Encoding: \(value)\r\n", requestLine: "POST / HTTP/1.1")
        ParserDriver.expectRejection(text, .invalidTransferEncoding)
    }

    @Test func refusesTransferEncodingOnHTTP10() {
        let text = Self.head("Transfer-Encoding: chunked\r\n", requestLine: "POST / HTTP/1.0")
        ParserDriver.expectRejection(text + "0\r\n\r\n", .transferEncodingOnHTTP10)
    }

    // MARK: - Expect

    @Test(arguments: ["100-continue-please", "", "200-ok", "100-continue, x"])
    func answers417ToAnUnsupportedExpectation(value: String) {
        let fields = "Host: h\r\nExpect: \(value)\r\nContent-Length: 1\r\n"
        ParserDriver.expectRejection(Self.head(fields, requestLine: "POST / HTTP/1.1") + "x", .unsupportedExpectation)
        #expect(RequestParseError.unsupportedExpectation.status == .expectationFailed)
    }

    // MARK: - After an error

    @Test func keepsThrowingTheSameErrorOnceDead() throws {
        var parser = RequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost : h\r\n\r\n".utf8))
        #expect(throws: RequestParseError.whitespaceBeforeColon) { try parser.next() }
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(throws: RequestParseError.whitespaceBeforeColon) { try parser.next() }
    }
}
