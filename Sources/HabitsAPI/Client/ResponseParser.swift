import HTTPCore

/// Incremental, strict, bounded HTTP/1.1 response parser (RFC 9112). It is given bytes and returns responses; it
/// never sees a socket, so it is tested with bytes split at every boundary.
///
/// Framing follows §6.3: no body for 1xx/204/304, `Transfer-Encoding: chunked`, else `Content-Length`, else the
/// body runs until the connection closes (`finish()`), which makes the connection not reusable. Anything ambiguous
/// — CL with TE, two different lengths, bare LF, obs-fold — is refused rather than guessed: the upstream is trusted
/// less than our own code. After a thrown error the parser is dead and the connection must be closed.
///
/// Field lines, `Content-Length` and `Transfer-Encoding` (`ContentLength`, `TransferCodings`), the chunked body
/// (`ChunkedBody`: chunk-size lines, chunk terminators, trailers) and the keep-alive rule are HTTPCore's, the very
/// ones the server's request parser uses, so both sides agree on what is well formed; only the status line
/// (`StatusLine`) and the choice of framing by status are the client's own.
public struct ResponseParser: Sendable {
    /// Size limits; a response over any of them is an error, never a huge allocation.
    public struct Limits: Sendable {
        /// Longest status or header line, CRLF excluded.
        public var lineBytes = 8192
        /// Longest head (status line + headers + blank line).
        public var headBytes = 65536
        /// Most header fields.
        public var headerCount = 100
        /// Largest body (profile images included).
        public var bodyBytes = 16 << 20
        /// Longest chunk-size line.
        public var chunkLineBytes = 1024
        /// Largest trailer section.
        public var trailerBytes = 8192
        /// The default limits.
        public init() {}
    }

    /// What `next()` found.
    public enum Event: Equatable, Sendable {
        /// Feed more bytes (or call `finish()` at end of stream).
        case needMoreData
        /// One complete response; `reusable` says whether the connection may carry another request.
        case response(HTTPClientResponse, reusable: Bool)
    }

    private enum State: Equatable {
        case head
        case fixedBody(remaining: Int)
        /// A chunked body, decoded by `chunked`.
        case chunked
        case untilClose
    }

    private let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0
    private var headScanFrom = 0
    private var state = State.head
    private var ended = false
    private var failure: ResponseParseError?
    private var status = 0
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []
    private var chunked: ChunkedBody?
    private var reusable = true

    /// Creates a parser.
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Whether bytes of a next response (or of this one) are buffered: a response that leaves any makes the
    /// connection unusable, since we never pipeline.
    public var hasBufferedBytes: Bool { start < buffer.count || state != .head }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            headScanFrom = max(0, headScanFrom - start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Marks the end of the stream (the peer closed): completes a close-delimited body, or makes `next()` throw
    /// `unexpectedEnd` if a response was cut short.
    public mutating func finish() { ended = true }

    /// Parses as far as the buffered bytes allow.
    public mutating func next() throws(ResponseParseError) -> Event {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    private var available: Int { buffer.count - start }

    private mutating func step() throws(ResponseParseError) -> Event {
        while true {
            switch state {
            case .head:
                guard let headEnd = findHeadEnd() else {
                    if available > limits.headBytes { throw .headTooLarge }
                    if ended { throw .unexpectedEnd }
                    return .needMoreData
                }
                if headEnd + 4 - start > limits.headBytes { throw .headTooLarge }
                let head = Array(buffer[start..<headEnd])
                start = headEnd + 4
                headScanFrom = start
                if let event = try beginResponse(head: head) { return event }
            case .fixedBody(let remaining):
                let take = min(remaining, available)
                body.append(contentsOf: buffer[start..<start + take])
                start += take
                if remaining == take { return complete() }
                state = .fixedBody(remaining: remaining - take)
                if ended { throw .unexpectedEnd }
                return .needMoreData
            case .chunked:
                guard var decoder = chunked else { throw .invalidChunk }
                let consumed: Int
                do throws(ChunkedBody.Error) {
                    consumed = try decoder.decode(buffer, from: start)
                } catch {
                    // Bad sizes, missing terminators, bare CR or LF, overlong lines or trailers: one error; a body
                    // over its limit says so.
                    throw error == .bodyTooLarge ? .bodyTooLarge : .invalidChunk
                }
                start += consumed
                chunked = decoder
                guard decoder.isComplete else {
                    if ended { throw .unexpectedEnd }
                    return .needMoreData
                }
                body = decoder.body
                chunked = nil
                return complete()
            case .untilClose:
                if body.count + available > limits.bodyBytes { throw .bodyTooLarge }
                body.append(contentsOf: buffer[start...])
                start = buffer.count
                if ended { return complete() }
                return .needMoreData
            }
        }
    }

    // MARK: - Head

    /// Reads the status line and headers and chooses the framing; returns an event when the response has no body.
    private mutating func beginResponse(head: [UInt8]) throws(ResponseParseError) -> Event? {
        let (version, code, fields) = try head.withUnsafeBufferPointer { bytes throws(ResponseParseError) in
            try Self.parseHead(bytes, limits: limits)
        }
        if code == 101 { throw .unexpectedUpgrade }
        if (100..<200).contains(code) { return nil }  // interim response: the real one follows
        status = code
        headers = fields
        body = []
        reusable = KeepAlive.persists(version: version, headers: fields)

        let lengths = fields.values(for: "Content-Length")
        if code == 204 || code == 304 {
            return complete()
        }
        var codings = TransferCodings()
        for value in fields.values(for: "Transfer-Encoding") {
            do throws(TransferCodings.Error) {
                try codings.add(value)
            } catch {
                throw .unsupportedTransferEncoding
            }
        }
        if codings.isPresent {
            if !lengths.isEmpty { throw .conflictingFraming }
            guard codings.isChunkedOnly else { throw .unsupportedTransferEncoding }
            state = .chunked
            chunked = ChunkedBody(limits: limits.chunkedBody)
            return nil
        }
        if !lengths.isEmpty {
            // A list of one value repeated is that value (RFC 9112 §6.3 lets a recipient take it); anything else is
            // a smuggling signal.
            let values = Set(
                lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
                    $0.trimmingASCIIWhitespace()
                })
            guard values.count == 1, let text = values.first else { throw .conflictingFraming }
            guard let length = ContentLength.parse(text.utf8) else { throw .invalidContentLength }
            if length > limits.bodyBytes { throw .bodyTooLarge }
            if length == 0 { return complete() }
            // Once, at its announced size (bounded above): a multi-megabyte answer grown by doubling held up to
            // twice its size while it was copied.
            body.reserveCapacity(length)
            state = .fixedBody(remaining: length)
            return nil
        }
        reusable = false
        state = .untilClose
        return nil
    }

    /// The status line and the header fields of a head (without its final CRLFCRLF).
    private static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(ResponseParseError)
        -> (HTTPVersion, Int, HTTPHeaders)
    {
        var lines = lineRanges(bytes)
        let statusLine = lines.removeFirst()
        if statusLine.count > limits.lineBytes { throw .headTooLarge }
        let (version, code) = try StatusLine.parse(bytes, statusLine)
        if lines.count > limits.headerCount { throw .tooManyHeaders }
        var fields = HTTPHeaders()
        for line in lines {
            if line.count > limits.lineBytes { throw .headTooLarge }
            guard !line.isEmpty else { throw .malformedHeader }
            let field: FieldLine
            do throws(FieldLine.Error) {
                field = try FieldLine.parse(bytes, line)
            } catch {
                // Obs-fold, space before the colon, control bytes: the upstream gets one error for them all.
                throw .malformedHeader
            }
            fields.add(
                name: String(decoding: UnsafeBufferPointer(rebasing: bytes[field.name]), as: UTF8.self),
                value: String(decoding: UnsafeBufferPointer(rebasing: bytes[field.value]), as: UTF8.self))
        }
        return (version, code, fields)
    }

    /// The lines of a head (without its final CRLFCRLF), split on CRLF. A bare CR or LF stays inside a line and
    /// fails there, as a control byte the field grammar refuses.
    private static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var lineStart = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == HTTPBytes.cr && bytes[index + 1] == HTTPBytes.lf {
                lines.append(lineStart..<index)
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(lineStart..<bytes.count)
        return lines
    }

    private mutating func complete() -> Event {
        let response = HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: body)
        state = .head
        body = []
        headers = HTTPHeaders()
        return .response(response, reusable: reusable)
    }

    private mutating func findHeadEnd() -> Int? {
        let from = max(start, headScanFrom - 3)
        let end = buffer.withUnsafeBufferPointer { LineScanner.headTerminator(in: $0, from: from, to: $0.count) }
        if end == nil { headScanFrom = buffer.count }
        return end
    }
}

extension ResponseParser.Limits {
    /// The limits of a chunked body: trailer lines are bounded like header lines.
    var chunkedBody: ChunkedBody.Limits {
        ChunkedBody.Limits(
            chunkLineBytes: chunkLineBytes, trailerLineBytes: lineBytes, trailerBytes: trailerBytes,
            bodyBytes: bodyBytes)
    }
}
