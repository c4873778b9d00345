/// The chunked transfer coding (RFC 9112 §7.1) as a pure decoder: the request parser and the response parser feed it
/// the bytes after a head that said `Transfer-Encoding: chunked`, and it says how many it consumed, keeps the
/// de-chunked body, and finishes after the trailer section. It never sees a socket, and its verdicts do not depend
/// on how the bytes were split across reads.
///
/// Strict: chunk-size lines are HTTPCore's `ChunkSizeLine`, lines end in CRLF only (`LineScanner`), chunk data must
/// be followed by CRLF, trailer fields are checked like header fields and then dropped (§7.1.2 lets a recipient drop
/// them, and merging them into the head would let a body smuggle fields in). Every size is bounded by `Limits`, and
/// an announced chunk is refused before its data is read when it would pass the body limit.
public struct ChunkedBody: Sendable {
    /// The bounds of one chunked body.
    public struct Limits: Sendable, Equatable {
        /// Longest chunk-size line, CRLF excluded.
        public var chunkLineBytes: Int
        /// Longest trailer field line, CRLF excluded.
        public var trailerLineBytes: Int
        /// Largest trailer section, every CRLF included.
        public var trailerBytes: Int
        /// Largest de-chunked body.
        public var bodyBytes: Int

        /// Limits as given.
        public init(chunkLineBytes: Int, trailerLineBytes: Int, trailerBytes: Int, bodyBytes: Int) {
            self.chunkLineBytes = chunkLineBytes
            self.trailerLineBytes = trailerLineBytes
            self.trailerBytes = trailerBytes
            self.bodyBytes = bodyBytes
        }
    }

    /// Why a chunked body is refused; each parser maps it onto its own error.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// A chunk-size line longer than `chunkLineBytes`.
        case chunkLineTooLong
        /// A chunk-size line that is not well formed.
        case invalidChunkSize(ChunkSizeLine.Error)
        /// Chunk data not followed by CRLF.
        case missingChunkTerminator
        /// A trailer line longer than `trailerLineBytes`.
        case trailerLineTooLong
        /// A trailer section larger than `trailerBytes`.
        case trailersTooLarge
        /// A trailer line that is not a well-formed field line.
        case invalidTrailer(FieldLine.Error)
        /// A CR not followed by LF in a chunk-size or trailer line.
        case bareCarriageReturn
        /// An LF without its CR in a chunk-size or trailer line.
        case bareLineFeed
        /// The body would pass `bodyBytes`.
        case bodyTooLarge
    }

    /// What the decoder waits for.
    public enum Stage: Sendable, Equatable {
        /// A chunk-size line.
        case sizeLine
        /// The data of a chunk, `remaining` bytes still to come.
        case data(remaining: Int)
        /// The CRLF after a chunk's data.
        case dataEnd
        /// Trailer field lines up to the final empty line.
        case trailers
        /// The final empty line has been read: `body` is the whole body.
        case complete
    }

    /// The limits in force.
    public let limits: Limits
    /// Where the decoder stands.
    public private(set) var stage = Stage.sizeLine
    /// The de-chunked body so far.
    public private(set) var body: [UInt8] = []
    /// Bytes of the trailer section consumed so far, CRLFs included.
    private var trailerBytes = 0
    /// Bytes after the start of the current line already scanned (they hold no CR or LF), so a line that arrives in
    /// pieces is scanned once.
    private var scanned = 0

    /// A decoder at the first chunk-size line.
    public init(limits: Limits) { self.limits = limits }

    /// Whether the body is complete.
    public var isComplete: Bool { stage == .complete }

    /// Decodes what it can of `bytes[start...]` (the bytes not yet consumed, the same first byte on the next call
    /// plus whatever arrived) and returns how many of them it consumed. Stops at `.complete`, leaving the bytes after
    /// the body (a next message) unconsumed. After a thrown error the body is unreadable: close the connection.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(Error) -> Int {
        var index = start
        while true {
            switch stage {
            case .sizeLine:
                guard let line = try nextLine(bytes, at: index, maxLength: limits.chunkLineBytes, .chunkLineTooLong)
                else { return index - start }
                let size: Int
                do throws(ChunkSizeLine.Error) {
                    size = try ChunkSizeLine.parse(bytes, line)
                } catch {
                    throw .invalidChunkSize(error)
                }
                index = line.upperBound + 2
                if size == 0 {
                    trailerBytes = 0
                    stage = .trailers
                } else {
                    // Refused as soon as the announced size would pass the limit, before its data is read.
                    guard size <= limits.bodyBytes - body.count else { throw .bodyTooLarge }
                    stage = .data(remaining: size)
                }
            case .data(let remaining):
                let take = min(remaining, bytes.count - index)
                guard take > 0 else { return index - start }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + take]))
                index += take
                stage = take == remaining ? .dataEnd : .data(remaining: remaining - take)
            case .dataEnd:
                let available = bytes.count - index
                guard available > 0 else { return index - start }
                guard bytes[index] == HTTPBytes.cr else { throw .missingChunkTerminator }
                guard available > 1 else { return index - start }
                guard bytes[index + 1] == HTTPBytes.lf else { throw .missingChunkTerminator }
                index += 2
                stage = .sizeLine
            case .trailers:
                // The tighter of the line's own bound and the room left in the section decides, and so does which
                // error an over-long line gets; a field line must leave room for the final CRLF.
                let room = limits.trailerBytes - trailerBytes - 2
                let fitsLine = limits.trailerLineBytes <= room
                guard
                    let line = try nextLine(
                        bytes, at: index, maxLength: fitsLine ? limits.trailerLineBytes : room,
                        fitsLine ? .trailerLineTooLong : .trailersTooLarge)
                else { return index - start }
                index = line.upperBound + 2
                trailerBytes += line.count + 2
                if line.isEmpty {
                    stage = .complete
                    return index - start
                }
                guard trailerBytes + 2 <= limits.trailerBytes else { throw .trailersTooLarge }
                do throws(FieldLine.Error) {
                    _ = try FieldLine.parse(bytes, line)
                } catch {
                    throw .invalidTrailer(error)
                }
            case .complete:
                return index - start
            }
        }
    }

    /// `decode(_:from:)` over a parser's buffer.
    public mutating func decode(_ buffer: [UInt8], from start: Int) throws(Error) -> Int {
        try buffer.withUnsafeBufferPointer { bytes throws(Error) in try decode(bytes, from: start) }
    }

    /// The complete line at `start`, or nil when its end has not arrived yet.
    private mutating func nextLine(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, maxLength: Int, _ tooLong: Error
    ) throws(Error) -> Range<Int>? {
        guard maxLength >= 0 else { throw tooLong }
        switch LineScanner.scan(bytes, lineStart: start, from: start + scanned, maxLength: maxLength) {
        case .line(let end):
            scanned = 0
            return start..<end
        case .incomplete(let resumeAt):
            scanned = resumeAt - start
            return nil
        case .tooLong: throw tooLong
        case .bareCarriageReturn: throw .bareCarriageReturn
        case .bareLineFeed: throw .bareLineFeed
        }
    }
}
