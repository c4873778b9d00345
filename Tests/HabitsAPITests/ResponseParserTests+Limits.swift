import HTTPCore
import Testing

@testable import HabitsAPI

/// The size limits: a head, a header count, a chunked body and a trailer section over them refused before they end, and
/// a chunk line of exactly the limit accepted whatever the split.
extension ResponseParserTests {
    @Test func refusesAHeadOverTheLimitBeforeItEnds() {
        var limits = ResponseParser.Limits()
        limits.headBytes = 64
        var parser = ResponseParser(limits: limits)
        parser.append(Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 80)).utf8))
        #expect(throws: ResponseParseError.headTooLarge) { try parser.next() }
    }

    @Test func refusesTooManyHeaders() {
        var limits = ResponseParser.Limits()
        limits.headerCount = 3
        var parser = ResponseParser(limits: limits)
        parser.append(Array("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n".utf8))
        #expect(throws: ResponseParseError.tooManyHeaders) { try parser.next() }
    }

    @Test func refusesAChunkedBodyOverTheLimit() {
        var limits = ResponseParser.Limits()
        limits.bodyBytes = 8
        var parser = ResponseParser(limits: limits)
        parser.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\n".utf8))
        #expect(throws: ResponseParseError.bodyTooLarge) { try parser.next() }
    }

    /// Found with Fuzz/ResponseParserFuzz: a chunk-size line of exactly the limit was refused when a read ended
    /// between its CR and LF, and accepted otherwise.
    @Test func acceptsAChunkLineOfExactlyTheLimitWhateverTheSplit() throws {
        var limits = ResponseParser.Limits()
        limits.chunkLineBytes = 16
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;aaaaaaaaaaaaaa\r\nx\r\n0\r\n\r\n".utf8)
        let cr = try #require(bytes.firstIndex(of: UInt8(ascii: ";"))) + 15
        #expect(bytes[cr] == 13)
        var parser = ResponseParser(limits: limits)
        parser.append(bytes[...cr])
        #expect(try parser.next() == .needMoreData)
        parser.append(bytes[(cr + 1)...])
        guard case .response(let response, _) = try parser.next() else { throw ParserTestFailure() }
        #expect(response.body == Array("x".utf8))
        // One byte more is refused as soon as it is known to be over, with or without the CR.
        var longer = ResponseParser(limits: limits)
        longer.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;aaaaaaaaaaaaaaa\r".utf8))
        #expect(throws: ResponseParseError.invalidChunk) { try longer.next() }
    }

    @Test func refusesAnEndlessTrailerSection() {
        var limits = ResponseParser.Limits()
        limits.trailerBytes = 32
        var parser = ResponseParser(limits: limits)
        parser.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n".utf8))
        parser.append(Array(String(repeating: "X: yyyyyy\r\n", count: 5).utf8))
        #expect(throws: ResponseParseError.invalidChunk) { try parser.next() }
    }
}
