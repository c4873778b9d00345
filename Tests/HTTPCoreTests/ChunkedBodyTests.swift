import HTTPCore
import Testing

/// The chunked decoder both parsers drive: bytes in, the consumed count and the de-chunked body out.
@Suite struct ChunkedBodyTests {
    static let limits = ChunkedBody.Limits(chunkLineBytes: 16, trailerLineBytes: 32, trailerBytes: 48, bodyBytes: 64)

    /// Feeds `text` in pieces of `size` bytes into a buffer that keeps only what was not consumed, as a parser does.
    static func decode(_ text: String, pieces size: Int = .max) throws(ChunkedBody.Error) -> (ChunkedBody, [UInt8]) {
        var decoder = ChunkedBody(limits: limits)
        var buffer: [UInt8] = []
        var start = 0
        let bytes = Array(text.utf8)
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + min(size, bytes.count))
            buffer += bytes[offset..<end]
            offset = end
            let from = start
            start += try buffer.withUnsafeBufferPointer { buffer throws(ChunkedBody.Error) in
                try decoder.decode(buffer, from: from)
            }
        } while offset < bytes.count && !decoder.isComplete
        buffer += bytes[offset...]  // what a complete body leaves for the next message
        return (decoder, Array(buffer[start...]))
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func decodesChunksExtensionsAndTrailersSplitAnywhere(pieces: Int) throws {
        let (decoder, rest) = try Self.decode(
            "5;ext=\"a;b\"\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 1\r\n\r\nGET / HTTP/1.1\r\n", pieces: pieces)
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.body, as: UTF8.self) == "hello world")
        #expect(String(decoding: rest, as: UTF8.self) == "GET / HTTP/1.1\r\n", "what follows the body is not consumed")
    }

    @Test func anUnfinishedBodyWaitsForMoreAndConsumesOnlyWholeLines() throws {
        let (decoder, rest) = try Self.decode("5\r\nhel")
        #expect(!decoder.isComplete)
        #expect(decoder.stage == .data(remaining: 2))
        #expect(rest.isEmpty)
        let (partial, pending) = try Self.decode("5\r\nhello\r\n0\r\nX-A")
        #expect(partial.stage == .trailers)
        #expect(String(decoding: pending, as: UTF8.self) == "X-A", "a line is consumed only once it is whole")
    }

    @Test(arguments: [
        ("zz\r\n", ChunkedBody.Error.invalidChunkSize(.invalidSize)),
        ("5 \r\nhello\r\n", .invalidChunkSize(.invalidSize)),
        ("5;a b\r\nhello\r\n", .invalidChunkSize(.invalidExtension)),
        ("5\nhello\r\n", .bareLineFeed),
        ("5\rX", .bareCarriageReturn),
        ("00000000000000005\r\n", .chunkLineTooLong),
        ("1\r\naXY", .missingChunkTerminator),
        ("1\r\na\rX", .missingChunkTerminator),
        ("41\r\n", .bodyTooLarge),
        ("20\r\n" + String(repeating: "a", count: 32) + "\r\n21\r\n", .bodyTooLarge),
        ("FFFFFFFFFFFFFFFF\r\n", .bodyTooLarge),
        ("0\r\nnocolon\r\n\r\n", .invalidTrailer(.missingColon)),
        ("0\r\nX: " + String(repeating: "a", count: 30) + "\r\n", .trailerLineTooLong),
        ("0\r\nX-A: 12345678901234567\r\nX-B: 12345678901234567\r\n\r\n", .trailersTooLarge),
    ])
    func refusesWhatIsNotAWellFormedChunkedBody(text: String, error: ChunkedBody.Error) {
        for pieces in [1, 1000] {
            #expect(throws: error, "in pieces of \(pieces)") { try Self.decode(text, pieces: pieces) }
        }
    }

    /// A line of exactly the limit is accepted even when a read ends between its CR and LF.
    @Test func aChunkLineOfExactlyTheLimitIsAcceptedHoweverItIsSplit() throws {
        let line = String(repeating: "0", count: 15) + "1"
        for pieces in [1, 17, 1000] {
            let (decoder, _) = try Self.decode(line + "\r\nx\r\n0\r\n\r\n", pieces: pieces)
            #expect(decoder.body == Array("x".utf8))
        }
    }
}
