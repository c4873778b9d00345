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
}
