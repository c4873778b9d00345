import Testing

@testable import HTTPServer

/// Requests the parser accepts, fed whole and split at every byte boundary.
@Suite struct RequestParserTests {
    @Test func parsesASimpleGet() throws {
        let outcome = ParserDriver.parse("GET /habits?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nAccept: */*\r\n\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.phase == .idle)
        #expect(
            outcome.requests == [
                Request(
                    method: .get, target: "/habits?x=1", version: .http1_1,
                    headers: ["Host": "localhost:8080", "Accept": "*/*"])
            ])
    }

    @Test func trimsOptionalWhitespaceAroundFieldValuesButKeepsInnerSpaces() {
        let outcome = ParserDriver.parse("GET / HTTP/1.1\r\nHost:h\r\nX-A: \t a  b \t\r\nX-Empty:\r\nX-B:   \r\n\r\n")
        #expect(outcome.requests.first?.headers.fields.map(\.value) == ["h", "a  b", "", ""])
    }

    @Test func keepsRepeatedFieldsInOrder() {
        let outcome = ParserDriver.parse("GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\ncookie: b=2\r\n\r\n")
        #expect(outcome.requests.first?.headers.values(for: "Cookie") == ["a=1", "b=2"])
    }

    @Test func readsAContentLengthBody() {
        let outcome = ParserDriver.parse("POST /log HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhabit=Swim!")
        #expect(outcome.requests.map(\.body) == [Array("habit=Swim!".utf8)])
        #expect(outcome.phase == .idle)
    }

    @Test func givesARequestWithoutFramingAnEmptyBody() {
        let outcome = ParserDriver.parse("POST / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.method) == [.post, .get])
        #expect(outcome.requests.map(\.body) == [[], []])
    }

    @Test func acceptsAnHTTP10RequestWithoutHost() {
        let outcome = ParserDriver.parse("GET /old HTTP/1.0\r\n\r\n")
        #expect(outcome.requests == [Request(method: .get, target: "/old", version: .http1_0)])
    }

    @Test func parsesPipelinedRequestsFromOneBuffer() {
        let outcome = ParserDriver.parse(
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /c HTTP/1.1\r\nHost: h\r\n\r\nGET /d HT")
        #expect(outcome.requests.map(\.head.target) == ["/a", "/b", "/c"])
        #expect(outcome.requests.map(\.body) == [[], Array("abc".utf8), []])
        #expect(outcome.error == nil)
        #expect(outcome.phase == .head)
    }

    @Test func asksForContinueOnceBeforeTheBody() {
        let text = "PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\nok"
        let outcome = ParserDriver.parse(text)
        let head = RequestHead(
            method: .put, target: "/x", headers: ["Host": "h", "Expect": "100-Continue", "Content-Length": "2"])
        #expect(outcome.events == [.continueExpected(head), .request(Request(head: head, body: Array("ok".utf8)))])
    }

    @Test func asksForContinueBeforeAChunkedBodyToo() {
        let text =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n2\r\nok\r\n0\r\n\r\n"
        let outcome = ParserDriver.parse(text)
        #expect(outcome.events.count == 2)
        guard case .continueExpected(let head) = outcome.events.first else {
            Issue.record("expected .continueExpected first, got \(outcome.events)")
            return
        }
        #expect(head.method == .post)
        #expect(outcome.requests.map(\.body) == [Array("ok".utf8)])
    }

    /// Nothing to continue: the request is complete at the end of its head.
    @Test(arguments: ["", "Content-Length: 0\r\n"])
    func doesNotAskForContinueWithoutABody(framing: String) {
        let outcome = ParserDriver.parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\(framing)\r\n")
        #expect(outcome.events.count == 1)
        #expect(outcome.requests.count == 1)
    }

    /// RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request is ignored.
    @Test func ignoresContinueFromAnHTTP10Client() {
        let outcome = ParserDriver.parse("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(outcome.events.count == 1)
        #expect(outcome.requests.map(\.version) == [.http1_0])
    }

    /// The parser leaves keep-alive to the connection: it reports the version and the Connection field as sent.
    @Test func reportsHTTP10RequestsWithOrWithoutKeepAlive() {
        let outcome = ParserDriver.parse(
            "GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.version) == [.http1_0, .http1_0])
        #expect(outcome.requests.map { $0.headers["connection"] } == [nil, "keep-alive"])
    }

    /// RFC 9110 §2.5: a higher minor version of HTTP/1 is processed as the highest one implemented.
    @Test func servesAHigherHTTP1MinorVersionAsHTTP11() {
        #expect(ParserDriver.parse("GET / HTTP/1.7\r\nHost: h\r\n\r\n").requests.map(\.version) == [.http1_1])
    }

    @Test func reportsItsPhaseForTheConnectionTimeouts() throws {
        var parser = RequestParser()
        #expect(parser.phase == .idle)
        parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\n".utf8))
        #expect(try parser.next() == .needMoreData)
        #expect(parser.phase == .head)
        parser.append(Array("Content-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.next() == .needMoreData)
        #expect(parser.phase == .body)
        parser.append(Array("cd".utf8))
        #expect(
            try parser.next()
                == .request(
                    Request(
                        method: .post, target: "/", headers: ["Host": "h", "Content-Length": "4"],
                        body: Array("abcd".utf8))))
        #expect(parser.phase == .idle)
        parser.append(Array("\r\n".utf8))
        #expect(try parser.next() == .needMoreData)
        #expect(parser.phase == .head)
    }

    /// Browsers send these unescaped (WHATWG URL); the router, not the parser, judges the path.
    @Test func acceptsVisibleASCIIInTheTarget() {
        let target = "/a|b^c[d]{e}`f'g!$&()*+,;=:@~-._%20?q=/?x"
        #expect(ParserDriver.parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n").requests.map(\.head.target) == [target])
    }

    @Test func acceptsLimitsAsLargeAsIntMax() {
        let limits = RequestParser.Limits(
            requestLineBytes: .max, headerLineBytes: .max, headBytes: .max, headerCount: .max, bodyBytes: .max,
            chunkLineBytes: .max, trailerBytes: .max)
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nT: 1\r\n\r\n"
        #expect(ParserDriver.parse(text, limits: limits).requests.map(\.body) == [[UInt8(ascii: "x")]])
    }

    @Test func acceptsBytesStraightFromARawReadBuffer() throws {
        var parser = RequestParser()
        let bytes = Array("GET /raw HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        bytes.withUnsafeBytes { parser.append($0) }
        #expect(try parser.next() == .request(Request(method: .get, target: "/raw", headers: ["Host": "h"])))
    }

    /// Many pipelined requests arriving in reads that cut them anywhere, so the buffer is compacted while a
    /// request is half-parsed.
    @Test func parsesAThousandPipelinedRequestsAcrossArbitraryReads() throws {
        var stream: [UInt8] = []
        for index in 0..<1000 {
            stream += Array("POST /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n\(10000 + index)".utf8)
        }
        var parser = RequestParser()
        var targets: [String] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 997)
            parser.append(stream[offset..<end])
            offset = end
            while case .request(let request) = try parser.next() {
                #expect(request.body == Array("\(10000 + Int(request.head.target.dropFirst())!)".utf8))
                targets.append(request.head.target)
            }
        }
        #expect(targets == (0..<1000).map { "/\($0)" })
        #expect(parser.phase == .idle)
    }

    /// `progress` is what the body-rate deadline and the at-cap choice of the slowest sender count: head bytes
    /// while the head is incomplete, then body bytes only.
    @Test func progressCountsTheHeadThenOnlyTheBody() throws {
        var parser = RequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHo".utf8))
        #expect(try parser.next() == .needMoreData)
        #expect(parser.progress == 19)
        parser.append(Array("st: h\r\nContent-Length: 10\r\n\r\nabc".utf8))
        #expect(try parser.next() == .needMoreData)
        #expect(parser.progress == 3)

        var chunked = RequestParser()
        chunked.append(
            Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nab".utf8))
        #expect(try chunked.next() == .needMoreData)
        #expect(chunked.progress == 7)
    }
}
