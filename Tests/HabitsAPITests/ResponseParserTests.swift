import HTTPCore
import Testing

@testable import HabitsAPI

@Suite struct ResponseParserTests {
    /// A well-formed response and what it must parse to.
    struct Sample: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var status: Int
        var body: String
        var reusable: Bool
        /// Close-delimited: only complete once the stream ends.
        var needsEnd = false
        var testDescription: String { name }
    }

    static let samples: [Sample] = [
        Sample(
            name: "content-length",
            bytes: Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":[1,2,3]}".utf8),
            status: 200, body: #"{"a":[1,2,3]}"#, reusable: true),
        Sample(
            name: "chunked with extension and trailer",
            bytes: Array(
                ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n7\r\n, world\r\n"
                    + "B\r\n 0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n").utf8),
            status: 200, body: "hello, world 0123456789", reusable: true),
        Sample(
            name: "no content", bytes: Array("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n".utf8), status: 204,
            body: "",
            reusable: true),
        Sample(
            name: "empty body", bytes: Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), status: 404,
            body: "", reusable: true),
        Sample(
            name: "interim 100 before the answer",
            bytes: Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8),
            status: 201, body: "ok", reusable: true),
        Sample(
            name: "connection close",
            bytes: Array("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 1\r\n\r\nx".utf8),
            status: 200, body: "x", reusable: false),
        Sample(
            name: "HTTP/1.0 keep-alive",
            bytes: Array("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx".utf8), status: 200,
            body: "x", reusable: true),
        Sample(
            name: "close-delimited", bytes: Array("HTTP/1.0 200 OK\r\nX: y\r\n\r\nabc\r\ndef".utf8), status: 200,
            body: "abc\r\ndef", reusable: false, needsEnd: true),
        Sample(
            name: "no reason phrase", bytes: Array("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nhi".utf8), status: 200,
            body: "hi", reusable: true),
        Sample(
            name: "utf-8 body and repeated length",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 6, 6\r\n\r\nCrêpe".utf8), status: 200, body: "Crêpe",
            reusable: true),
    ]

    private static func event(_ sample: Sample) -> ResponseParser.Event {
        .response(
            HTTPClientResponse(
                status: HTTPStatus(code: sample.status), headers: headers(sample), body: Array(sample.body.utf8)),
            reusable: sample.reusable)
    }

    /// The headers the sample's final response carries (parsed independently by a naive split).
    private static func headers(_ sample: Sample) -> HTTPHeaders {
        let text = String(decoding: sample.bytes, as: UTF8.self)
        let heads = text.components(separatedBy: "\r\n\r\n")
        let head = sample.name.hasPrefix("interim") ? heads[1] : heads[0]
        let fields = head.components(separatedBy: "\r\n").dropFirst().map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts[1]).trimmingASCIIWhitespace())
        }
        return HTTPHeaders(fields)
    }

    @Test(arguments: samples)
    func parsesWhenSplitAtEveryByte(_ sample: Sample) throws {
        let expected = Self.event(sample)
        for split in 0...sample.bytes.count {
            var parser = ResponseParser()
            parser.append(sample.bytes[..<split])
            let first = try parser.next()
            if split < sample.bytes.count || sample.needsEnd {
                #expect(first == .needMoreData, "split at \(split)")
                parser.append(sample.bytes[split...])
                if sample.needsEnd {
                    #expect(try parser.next() == .needMoreData, "split at \(split)")
                    parser.finish()
                }
                #expect(try parser.next() == expected, "split at \(split)")
            } else {
                #expect(first == expected)
            }
            #expect(!parser.hasBufferedBytes)
        }
    }

    @Test(arguments: samples)
    func parsesOneByteAtATime(_ sample: Sample) throws {
        var parser = ResponseParser()
        var result: ResponseParser.Event = .needMoreData
        for byte in sample.bytes {
            parser.append([byte])
            if case .response = result { Issue.record("response before the last byte") }
            result = try parser.next()
        }
        if sample.needsEnd {
            #expect(result == .needMoreData)
            parser.finish()
            result = try parser.next()
        }
        #expect(result == Self.event(sample))
    }

    @Test func parsesTwoResponsesInOneBuffer() throws {
        var parser = ResponseParser()
        parser.append(
            Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 500 Oops\r\nContent-Length: 1\r\n\r\nb".utf8))
        guard case .response(let first, _) = try parser.next() else { throw ParserTestFailure() }
        #expect(parser.hasBufferedBytes)
        guard case .response(let second, _) = try parser.next() else { throw ParserTestFailure() }
        #expect(first.body == Array("a".utf8))
        #expect(second.status.code == 500)
        #expect(!parser.hasBufferedBytes)
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var error: ResponseParseError
        var end = false
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "not HTTP", text: "HTTX/1.1 200 OK\r\n\r\n", error: .malformedStatusLine),
        Failure(name: "two-digit status", text: "HTTP/1.1 20 OK\r\n\r\n", error: .malformedStatusLine),
        Failure(name: "status 099", text: "HTTP/1.1 099 OK\r\n\r\n", error: .malformedStatusLine),
        Failure(name: "HTTP/2", text: "HTTP/2.0 200 OK\r\n\r\n", error: .unsupportedVersion),
        Failure(name: "space before colon", text: "HTTP/1.1 200 OK\r\nX : y\r\n\r\n", error: .malformedHeader),
        Failure(name: "obs-fold", text: "HTTP/1.1 200 OK\r\nX: y\r\n z\r\n\r\n", error: .malformedHeader),
        Failure(name: "bare LF", text: "HTTP/1.1 200 OK\r\nX: y\nZ: w\r\n\r\n", error: .malformedHeader),
        Failure(name: "NUL in value", text: "HTTP/1.1 200 OK\r\nX: a\u{0}b\r\n\r\n", error: .malformedHeader),
        Failure(
            name: "CL and TE", text: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            error: .conflictingFraming),
        Failure(
            name: "two lengths", text: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
            error: .conflictingFraming),
        Failure(
            name: "signed length", text: "HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\n", error: .invalidContentLength),
        // HTTPCore's ContentLength saturates: a huge well-formed length is too large, as on the server (413).
        Failure(
            name: "huge length", text: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
            error: .bodyTooLarge),
        Failure(
            name: "length with a space inside", text: "HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n",
            error: .invalidContentLength),
        Failure(
            name: "both framings, TE first",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello",
            error: .conflictingFraming),
        Failure(
            name: "chunked twice", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
            error: .unsupportedTransferEncoding),
        Failure(
            name: "a coding after chunked",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
            error: .unsupportedTransferEncoding),
        Failure(
            name: "coding with a parameter", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked;q=1\r\n\r\n",
            error: .unsupportedTransferEncoding),
        Failure(
            name: "empty coding list", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: ,\r\n\r\n",
            error: .unsupportedTransferEncoding),
        Failure(
            name: "bare LF after a chunk size",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n", error: .invalidChunk),
        Failure(
            name: "bare CR in a chunk size",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\rX\r\nhello\r\n0\r\n\r\n",
            error: .invalidChunk),
        Failure(
            name: "overlong chunk-size line",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 1025)
                + "5\r\n",
            error: .invalidChunk),
        Failure(
            name: "overlong trailer line",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "a", count: 8200),
            error: .invalidChunk),
        Failure(
            name: "malformed trailer",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nno colon\r\n\r\n", error: .invalidChunk),
        Failure(
            name: "a chunk past the body limit",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000001\r\n", error: .bodyTooLarge),
        Failure(
            name: "length over the limit", text: "HTTP/1.1 200 OK\r\nContent-Length: 17000000\r\n\r\n",
            error: .bodyTooLarge),
        Failure(
            name: "gzip coding", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            error: .unsupportedTransferEncoding),
        Failure(
            name: "bad chunk size", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            error: .invalidChunk),
        Failure(
            name: "negative chunk size", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            error: .invalidChunk),
        // HTTPCore's ChunkSizeLine saturates (leading zeros are legal, so digits are no limit): too large, as on
        // the server.
        Failure(
            name: "overflowing chunk size",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n", error: .bodyTooLarge),
        Failure(
            name: "space after chunk size",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n", error: .invalidChunk),
        Failure(
            name: "chunk extension that is not a token",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a b\r\nhello\r\n0\r\n\r\n",
            error: .invalidChunk),
        Failure(
            name: "chunk without CRLF", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXY",
            error: .invalidChunk),
        Failure(name: "switching protocols", text: "HTTP/1.1 101 Switching\r\n\r\n", error: .unexpectedUpgrade),
        Failure(
            name: "cut body", text: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", error: .unexpectedEnd, end: true),
        Failure(name: "cut head", text: "HTTP/1.1 200 OK\r\nContent-Le", error: .unexpectedEnd, end: true),
        Failure(name: "nothing at all", text: "", error: .unexpectedEnd, end: true),
        Failure(
            name: "cut chunk", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
            error: .unexpectedEnd, end: true),
    ]

    @Test(arguments: failures)
    func refuses(_ failure: Failure) {
        var parser = ResponseParser()
        parser.append(Array(failure.text.utf8))
        if failure.end { parser.finish() }
        #expect(throws: failure.error) { try parser.next() }
        // A dead parser stays dead.
        #expect(throws: failure.error) { try parser.next() }
    }

    /// The verdict does not depend on how the bytes were split: fed one byte at a time, each bad response gets the
    /// same error.
    @Test(arguments: failures)
    func refusesTheSameWayFedOneByteAtATime(_ failure: Failure) {
        var parser = ResponseParser()
        var thrown: ResponseParseError?
        for byte in Array(failure.text.utf8) where thrown == nil {
            parser.append([byte])
            do { _ = try parser.next() } catch { thrown = error }
        }
        if thrown == nil, failure.end {
            parser.finish()
            do { _ = try parser.next() } catch { thrown = error }
        }
        #expect(thrown == failure.error)
    }

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

/// Thrown when a parse produced the wrong kind of event.
struct ParserTestFailure: Error {}
