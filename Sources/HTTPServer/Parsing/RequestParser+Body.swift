import HTTPCore

// MARK: - Body: Content-Length and chunked (RFC 9112 §6, §7)

extension RequestParser {
    /// A Content-Length body: waits until all of it is buffered, then copies it once.
    mutating func readFixedBody(length: Int) -> Step {
        guard buffer.count - readIndex >= length else { return .needMoreData }
        let end = readIndex + length
        let bytes = Array(buffer[readIndex..<end])
        consume(upTo: end)
        return .event(.request(finishRequest(body: bytes)))
    }

    /// Feeds the buffered bytes to the chunked decoder (HTTPCore's, which the upstream client's response parser
    /// drives too); the request is complete once the decoder has read the trailer section's final CRLF.
    mutating func readChunkedBody() throws(RequestParseError) -> Step {
        guard var decoder = chunked else { return .needMoreData }
        let start = readIndex
        let consumed: Int
        do throws(ChunkedBody.Error) { consumed = try decoder.decode(buffer, from: start) } catch {
            throw RequestParseError(error)
        }
        consume(upTo: start + consumed)
        guard decoder.isComplete else {
            chunked = decoder
            return .needMoreData
        }
        chunked = nil
        return .event(.request(finishRequest(body: decoder.body)))
    }
}

extension RequestParser.Limits {
    /// The limits of a chunked body: trailer lines are bounded like header lines.
    var chunkedBody: ChunkedBody.Limits {
        ChunkedBody.Limits(
            chunkLineBytes: chunkLineBytes, trailerLineBytes: headerLineBytes, trailerBytes: trailerBytes,
            bodyBytes: bodyBytes)
    }
}
