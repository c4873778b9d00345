import HTTPCore
import Testing

@testable import HTTPServer

@Suite struct ResponseHeadTests {
    let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    func head(_ response: Response, close: Bool = false, http10: Bool = false) throws -> String {
        String(
            decoding: try ResponseHead.serialize(
                response, bodyLength: response.body.count, close: close, keepAliveHTTP10: http10, date: date),
            as: UTF8.self)
    }

    @Test func writesStatusHeadersLengthAndDate() throws {
        #expect(
            try head(.text("hi"))
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    }

    /// Issue 8: every response, error answers and plain-text 404s included, tells browsers not to sniff; a
    /// handler's own field is replaced, never doubled.
    @Test(arguments: [
        Response.text("Not Found", status: .notFound), ErrorResponse.protocolError(.badRequest),
        Response(status: .noContent), Response(headers: ["x-content-type-options": "sniff-away"]),
    ])
    func everyResponseSaysNosniffOnce(response: Response) throws {
        let text = try head(response)
        #expect(text.components(separatedBy: "X-Content-Type-Options: nosniff\r\n").count == 2)
        #expect(!text.lowercased().contains("sniff-away"))
    }

    @Test func framingHeadersFromHandlersAreReplaced() throws {
        let response = Response(
            headers: HTTPHeaders([
                ("Content-Length", "999"), ("Transfer-Encoding", "chunked"), ("connection", "keep-alive"),
                ("X-Kept", "yes"),
            ]), body: [1, 2, 3])
        let text = try head(response, close: true)
        #expect(text.contains("Content-Length: 3\r\n"))
        #expect(!text.contains("999") && !text.contains("chunked") && !text.contains("keep-alive"))
        #expect(text.contains("X-Kept: yes\r\n") && text.contains("Connection: close\r\n"))
    }

    @Test func http10KeepAliveIsAnnounced() throws {
        #expect(try head(.text(""), http10: true).contains("Connection: keep-alive\r\n"))
    }

    @Test func notModifiedAndNoContentCarryNoContentLength() throws {
        #expect(!(try head(Response(status: .notModified))).contains("Content-Length"))
        #expect(!(try head(Response(status: .noContent))).contains("Content-Length"))
        #expect(try head(Response(status: .notFound)).contains("Content-Length: 0\r\n"))
    }

    /// Response splitting: a value with CR LF must never reach the wire.
    @Test(arguments: ["a\r\nSet-Cookie: x=y", "a\nb", "a\u{0}b"])
    func fieldValuesWithLineBreaksAreRefused(value: String) {
        #expect(throws: ResponseHead.InvalidField.self) { try head(Response(headers: HTTPHeaders([("X-Bad", value)]))) }
    }

    @Test func fieldNamesMustBeTokens() {
        #expect(throws: ResponseHead.InvalidField.self) {
            try head(Response(headers: HTTPHeaders([("Bad Name", "v")])))
        }
    }

    @Test func decimalDigitsAreWritten() {
        for value in [0, 7, 10, 99, 100, 20_480, 1_234_567_890] {
            var out: [UInt8] = []
            ResponseHead.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }

    @Test func dateIsIMFFixdate() {
        #expect(String(decoding: DateCache.format(784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    /// The loop writes heads through its scratch buffer; a head that does not fit is written the other way. Either
    /// gives the same bytes, and a field that would split the response is refused through both.
    @Test(arguments: [32, 4096])
    func headsWrittenThroughScratchAreTheSameBytes(scratchSize: Int) throws {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: scratchSize)
        defer { scratch.deallocate() }
        let responses = [
            Response.text("hi"), Response(status: .noContent), Response.redirect(to: "/habits"),
            Response(headers: HTTPHeaders([("X-Long", String(repeating: "v", count: 600))]), body: [1]),
        ]
        for response in responses {
            for close in [false, true] {
                let plain = try ResponseHead.serialize(
                    response, bodyLength: response.body.count, close: close, keepAliveHTTP10: false, date: date)
                let scratched = try ResponseHead.serialize(
                    response, bodyLength: response.body.count, close: close, keepAliveHTTP10: false, date: date,
                    scratch: scratch)
                #expect(scratched == plain)
            }
        }
        #expect(throws: ResponseHead.InvalidField.self) {
            try ResponseHead.serialize(
                Response(headers: HTTPHeaders([("X-Bad", "a\r\nSet-Cookie: x=1")])), bodyLength: 0, close: false,
                keepAliveHTTP10: false, date: date, scratch: scratch)
        }
    }
}
