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

    /// A chunk-size line; a zero size starts the trailer section.
    mutating func parseChunkSizeLine() throws(RequestParseError) -> Step {
        guard let line = try nextLine(maxLength: limits.chunkLineBytes, tooLong: .chunkLineTooLong) else {
            return .needMoreData
        }
        let size = try buffer.withUnsafeBufferPointer { bytes throws(RequestParseError) in
            do throws(ChunkSizeLine.Error) {
                return try ChunkSizeLine.parse(bytes, line)
            } catch {
                throw RequestParseError(error)
            }
        }
        consume(upTo: line.upperBound + 2)
        if size == 0 {
            sectionBytes = 0
            stage = .trailerLines
        } else {
            // Refused as soon as the announced size would pass the limit, before its data is read.
            guard size <= limits.bodyBytes - body.count else { throw .bodyTooLarge }
            stage = .chunkData(remaining: size)
        }
        return .progressed
    }

    /// Copies whatever part of the current chunk is buffered.
    mutating func readChunkData(remaining: Int) -> Step {
        let available = min(remaining, buffer.count - readIndex)
        guard available > 0 else { return .needMoreData }
        let end = readIndex + available
        body.append(contentsOf: buffer[readIndex..<end])
        consume(upTo: end)
        stage = available == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - available)
        return .progressed
    }

    /// The CRLF that must follow chunk data (RFC 9112 §7.1).
    mutating func readChunkDataEnd() throws(RequestParseError) -> Step {
        let available = buffer.count - readIndex
        guard available > 0 else { return .needMoreData }
        guard buffer[readIndex] == HTTPBytes.cr else { throw .missingChunkTerminator }
        guard available > 1 else { return .needMoreData }
        guard buffer[readIndex + 1] == HTTPBytes.lf else { throw .missingChunkTerminator }
        consume(upTo: readIndex + 2)
        stage = .chunkSizeLine
        return .progressed
    }

    /// One trailer field line (validated like a header field, then discarded: RFC 9112 §7.1.2 lets a recipient
    /// drop them, and merging them into the head would let a body smuggle headers), or the final empty line.
    mutating func parseTrailerLine() throws(RequestParseError) -> Step {
        guard
            let line = try nextLine(
                limit: limits.headerLineBytes, tooLong: .headerLineTooLong,
                room: limits.trailerBytes - sectionBytes - 2, sectionTooLarge: .trailersTooLarge)
        else { return .needMoreData }
        consume(upTo: line.upperBound + 2)
        sectionBytes += line.count + 2
        if line.isEmpty {
            let request = finishRequest(body: body)
            body = []
            return .event(.request(request))
        }
        guard sectionBytes + 2 <= limits.trailerBytes else { throw .trailersTooLarge }
        _ = try buffer.withUnsafeBufferPointer { bytes throws(RequestParseError) in
            do throws(FieldLine.Error) {
                return try FieldLine.parse(bytes, line)
            } catch {
                throw RequestParseError(error)
            }
        }
        return .progressed
    }
}
