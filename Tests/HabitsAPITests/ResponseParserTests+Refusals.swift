import HTTPCore
import Testing

@testable import HabitsAPI

/// Malformed answers, each refused with its one `ResponseParseError`, whole or fed one byte at a time.
extension ResponseParserTests {
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
}
