import Testing

@testable import HTTPServer

/// The parser's side of the answer memo (issue 21): the bytes of a bodiless request's head, and consuming a head
/// whose bytes are known without parsing it.
@Suite struct RequestParserKnownHeadTests {
    let get = "GET /people HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\n\r\n"

    func parser(_ text: String) -> RequestParser {
        var parser = RequestParser()
        parser.append(Array(text.utf8))
        return parser
    }

    @Test func theLastBodilessRequestsHeadIsItsBytesFromTheRequestLineToTheEmptyLine() throws {
        var parser = parser("\r\n" + get + "GET /next")
        guard case .request = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(parser.lastHead == Array(get.utf8), "the empty line before the request-line is not part of it")
        #expect(try parser.next() == .needMoreData)
        #expect(parser.lastHead == Array(get.utf8), "a partial next request leaves it")
        parser.append(Array(" HTTP/1.1\r\n".utf8))
        #expect(parser.lastHead == nil, "an append may move the bytes")
    }

    @Test func aRequestWithABodyHasNoHeadToKeep() throws {
        for text in [
            "POST /log HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            "POST /log HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        ] {
            var parser = parser(get + text)
            _ = try parser.next()
            #expect(parser.lastHead != nil)
            guard case .request = try parser.next() else {
                Issue.record("no request: \(text)")
                continue
            }
            #expect(parser.lastHead == nil, "\(text)")
        }
        // An empty body is no body: the head is all there is to the request.
        let empty = "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        var parser = parser(empty)
        _ = try parser.next()
        #expect(parser.lastHead == Array(empty.utf8))
    }

    @Test func aKnownHeadIsConsumedAndTheNextRequestParsesAsUsual() throws {
        var parser = parser(get + get + "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        var seen: [[UInt8]] = []
        let known = parser.consumeHead {
            seen.append(Array($0))
            return get.utf8.count
        }
        #expect(known)
        #expect(seen.first?.starts(with: Array((get + get).utf8)) == true, "it sees every unconsumed byte")
        #expect(parser.consumeHead { _ in get.utf8.count })
        guard case .request(let request) = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.method == .head)
        #expect(parser.phase == .idle)
        #expect(parser.lastHead == Array("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    }

    @Test func aHeadWhoseStartWasDroppedFromTheBufferHasNoBytesToKeep() throws {
        var parser = parser("GET /people HTTP/1.1\r\n")
        #expect(try parser.next() == .needMoreData)
        // Everything buffered was consumed: the next read starts a fresh buffer without the request-line.
        parser.append(Array("Host: x\r\nCookie: a=1\r\n\r\n".utf8))
        guard case .request(let request) = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.head.target == "/people")
        #expect(parser.lastHead == nil)
    }

    @Test func anUnknownHeadIsLeftForTheParser() throws {
        var parser = parser(get)
        #expect(!parser.consumeHead { _ in nil })
        #expect(!parser.consumeHead { _ in get.utf8.count + 1 }, "more than is buffered")
        guard case .request(let request) = try parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.head.target == "/people")
        #expect(parser.lastHead == Array(get.utf8))
    }

    @Test func onlyAHeadWithNothingOfItParsedIsOffered() throws {
        var offered = 0
        // An empty line before it: the parser skips it, and only the parser counts such lines.
        var leading = parser("\r\n" + get)
        let afterEmptyLine = leading.consumeHead { _ in
            offered += 1
            return get.utf8.count
        }
        // Its request-line already parsed (it came in two reads).
        var split = parser("GET /people HTTP/1.1\r\nHost")
        #expect(try split.next() == .needMoreData)
        split.append(Array(": x\r\nCookie: a=1\r\n\r\n".utf8))
        let afterRequestLine = split.consumeHead { _ in
            offered += 1
            return get.utf8.count
        }
        #expect(!afterEmptyLine && !afterRequestLine && offered == 0)
        guard case .request = try split.next() else {
            Issue.record("no request")
            return
        }
        #expect(split.lastHead == Array(get.utf8), "both reads are still buffered")
        // Incomplete, but the start of a request: what decides is whether the caller knows a head it starts with.
        var partial = RequestParser()
        partial.append(Array(get.utf8).dropLast(2))
        var seen = 0
        let unknown = partial.consumeHead { bytes in
            seen = bytes.count
            return nil
        }
        #expect(!unknown && seen == get.utf8.count - 2)
        #expect(try partial.next() == .needMoreData)
    }
}
