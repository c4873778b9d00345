import HTTPCore

/// Incremental HTTP/1.1 request parser (RFC 9112). It is given bytes and returns requests; it never sees a socket.
///
/// Feed bytes with `append`, then call `next()` until it returns `.needMoreData`. Bytes after a complete request
/// stay buffered for the next call (pipelining). After a thrown error the parser is dead and keeps throwing it.
public struct RequestParser: Sendable {
    /// Where the parser stands between requests, for the connection's timeouts.
    public enum Phase: Sendable, Equatable {
        /// No byte of a next request is buffered: the connection is idle (keep-alive timeout applies).
        case idle
        /// Part of a request head is buffered (header timeout applies).
        case head
        /// The head is complete and the body is being read (body timeout applies).
        case body
    }

    /// What `next()` produced.
    public enum Event: Equatable, Sendable {
        /// Nothing complete yet: append more bytes.
        case needMoreData
        /// The head is complete, it carries `Expect: 100-continue` and its body is still to come: the connection
        /// writes `100 Continue` and keeps feeding bytes. Emitted once per request, before `.request`.
        case continueExpected(RequestHead)
        /// One complete request. Bytes after it stay buffered for the next call.
        case request(Request)
    }

    /// What the parser is waiting for.
    enum Stage: Sendable {
        /// The request-line, possibly after a few empty lines.
        case requestLine
        /// Field lines up to the empty line that ends the head.
        case fieldLines
        /// A Content-Length body of `length` bytes.
        case fixedBody(length: Int)
        /// A chunked body, decoded by `chunked` (HTTPCore's `ChunkedBody`, the response parser's too).
        case chunkedBody
        /// Dead: every call throws this again.
        case failed(RequestParseError)
    }

    /// Empty lines tolerated before a request-line (RFC 9112 §2.2 asks for at least one).
    static let maxLeadingEmptyLines = 4

    /// The limits in force.
    public let limits: Limits
    /// Received bytes; everything before `readIndex` is consumed and dropped on the next compaction.
    var buffer: [UInt8] = []
    /// The first byte not consumed yet: the start of the line or body part being parsed.
    var readIndex = 0
    /// Where the scan for the current line's CRLF resumes; bytes from `readIndex` up to here hold no CR or LF.
    var scanIndex = 0
    /// The current stage.
    var stage = Stage.requestLine
    /// Empty lines skipped before the current request-line.
    var leadingEmptyLines = 0
    /// The head being collected (after its request-line) or whose body is being read.
    var head: HeadBuilder?
    /// Bytes of the head or trailer section consumed so far, CRLFs included.
    var sectionBytes = 0
    /// The chunked body being decoded, in `.chunkedBody`.
    var chunked: ChunkedBody?
    /// Where the current request-line starts (after any empty lines before it), while its head is collected; -1 once
    /// a compaction dropped it (the head came in several reads).
    var headStart = 0
    /// The head of the last request handed out, if it had no body and its bytes are still buffered (until the next
    /// `append`): what `lastHead` copies.
    var lastHeadRange: Range<Int>?

    /// Creates a parser with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Where the parser stands; see `Phase`.
    public var phase: Phase {
        switch stage {
        case .requestLine: readIndex < buffer.count || leadingEmptyLines > 0 ? .head : .idle
        case .fieldLines: .head
        case .fixedBody, .chunkedBody: .body
        case .failed: .idle
        }
    }

    /// Bytes of the current request received so far: of its head while the head is incomplete, of its body once
    /// the head is complete (chunk framing included). The connection's body-rate deadline and the server's choice
    /// of the slowest sender at the connection cap are computed from it.
    public var progress: Int {
        let unconsumed = buffer.count - readIndex
        switch stage {
        case .requestLine, .fieldLines: return sectionBytes + unconsumed
        case .fixedBody: return unconsumed
        case .chunkedBody: return (chunked?.body.count ?? 0) + unconsumed
        case .failed: return 0
        }
    }

    /// Whether bytes are buffered that no event has consumed yet (the start of a pipelined request, or all of it).
    public var hasBufferedBytes: Bool { readIndex < buffer.count }

    /// Frees the buffer when it holds nothing unconsumed between requests: an idle keep-alive connection then pins no
    /// buffer at all (issue 21: memory per idle connection), at the price of one allocation for its next request.
    public mutating func releaseBufferWhenEmpty() {
        guard readIndex == buffer.count, case .requestLine = stage, leadingEmptyLines == 0 else { return }
        buffer = []
        readIndex = 0
        scanIndex = 0
        lastHeadRange = nil
    }

    /// Buffers `bytes` for parsing.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Buffers `bytes` for parsing, straight from a read buffer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    // MARK: - Heads seen before

    /// The bytes of the head `next()` last handed out in a `.request`, from its request-line to its empty line, when
    /// that request had no body and nothing was appended since; else nil. The connection keeps them as the key of a
    /// reusable answer (`AnswerMemo`).
    public var lastHead: [UInt8]? {
        lastHeadRange.map { Array(buffer[$0]) }
    }

    /// Calls `known` with every unconsumed byte when a request's head starts at the read position with nothing of it
    /// parsed yet; `known` returns the length of a whole head those bytes start with, one it knows the request of, or
    /// nil. That head is then consumed as if `next()` had handed its request out, and the parser stands where it
    /// would then: identical bytes parse to the identical request, so the caller may use the one it kept from the
    /// first time instead (issue 21: the parse and the request it builds were a sixth of a warm page's CPU).
    public mutating func consumeHead(ifKnown known: (UnsafeBufferPointer<UInt8>) -> Int?) -> Bool {
        // A head kept starts at its request-line: one after empty lines is left to the parser, which counts them.
        guard case .requestLine = stage, leadingEmptyLines == 0, readIndex < buffer.count,
            buffer[readIndex] != 13, buffer[readIndex] != 10
        else { return false }
        let start = readIndex
        let count = buffer.withUnsafeBufferPointer { known(UnsafeBufferPointer(rebasing: $0[start...])) }
        guard let count, count > 0, count <= buffer.count - start else { return false }
        consume(upTo: start + count)
        lastHeadRange = nil
        return true
    }

    /// Parses as far as the buffered bytes allow.
    public mutating func next() throws(RequestParseError) -> Event {
        if case .failed(let error) = stage { throw error }
        do throws(RequestParseError) {
            while true {
                let step: Step
                switch stage {
                case .requestLine: step = try parseRequestLine()
                case .fieldLines: step = try parseFieldLine()
                case .fixedBody(let length): step = readFixedBody(length: length)
                case .chunkedBody: step = try readChunkedBody()
                case .failed(let error): throw error
                }
                switch step {
                case .progressed: continue
                case .needMoreData: return .needMoreData
                case .event(let event): return event
                }
            }
        } catch {
            stage = .failed(error)
            throw error
        }
    }

    /// The outcome of one parsing step.
    enum Step {
        /// Something was consumed; keep going.
        case progressed
        /// The buffered bytes are used up.
        case needMoreData
        /// Hand this to the caller.
        case event(Event)
    }

    // MARK: - Buffer

    /// Drops consumed bytes, but only when that is cheap: always when everything was consumed (the usual case
    /// between keep-alive requests), otherwise once the dead prefix is large and at least half the buffer.
    private mutating func compactIfWorthIt() {
        lastHeadRange = nil
        if readIndex == buffer.count {
            // Keep an ordinary buffer for the next request, but give back what a 64 KiB body made it grow to:
            // an idle keep-alive connection should not pin that memory.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 16384)
        } else if readIndex >= 16384 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
        } else {
            return
        }
        headStart = headStart >= readIndex ? headStart - readIndex : -1
        scanIndex -= readIndex
        readIndex = 0
    }

    /// Marks everything up to `index` as consumed.
    mutating func consume(upTo index: Int) {
        readIndex = index
        scanIndex = index
    }

    /// The next line, bounded both by its own limit and by the room left in its section (head or trailers):
    /// whichever bound is tighter decides, and so does which error an over-long line gets.
    mutating func nextLine(
        limit: Int, tooLong: RequestParseError, room: Int, sectionTooLarge: RequestParseError
    ) throws(RequestParseError) -> Range<Int>? {
        let fitsLine = limit <= room
        return try nextLine(maxLength: fitsLine ? limit : room, tooLong: fitsLine ? tooLong : sectionTooLarge)
    }

    /// Finds the next complete line at `readIndex`, or nil when more bytes are needed.
    mutating func nextLine(maxLength: Int, tooLong: RequestParseError) throws(RequestParseError) -> Range<Int>? {
        guard maxLength >= 0 else { throw tooLong }
        let (start, from) = (readIndex, scanIndex)
        let outcome = buffer.withUnsafeBufferPointer {
            LineScanner.scan($0, lineStart: start, from: from, maxLength: maxLength)
        }
        switch outcome {
        case .line(let end): return start..<end
        case .incomplete(let resumeAt):
            scanIndex = resumeAt
            return nil
        case .tooLong: throw tooLong
        case .bareCarriageReturn: throw .bareCarriageReturn
        case .bareLineFeed: throw .bareLineFeed
        }
    }
}
