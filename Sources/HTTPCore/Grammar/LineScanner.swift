/// Finds the CRLF that ends a line, refusing bare CR and bare LF (RFC 9112 §2.2) and over-long lines.
///
/// The verdict depends only on the bytes, never on how they were split across reads: a line is "too long"
/// only once the byte at its last allowed position has been seen and is not the CR of its CRLF. The request parser
/// (request-line, fields, chunk lines and trailers) and the response parser (chunk lines and trailers, through
/// `ChunkedBody`) find their lines with it.
public enum LineScanner {
    /// What the scan found.
    public enum Outcome: Equatable, Sendable {
        /// A complete line; `end` is the index of its CR, the next line starts at `end + 2`.
        case line(end: Int)
        /// No terminator yet; scanning may resume at `resumeAt` once more bytes arrive.
        case incomplete(resumeAt: Int)
        /// The line holds more than `maxLength` bytes before its CRLF.
        case tooLong
        /// A CR followed by something other than LF.
        case bareCarriageReturn
        /// An LF without a CR before it.
        case bareLineFeed
    }

    /// Scans `bytes` for the end of the line starting at `lineStart`, resuming at `from` (bytes between them
    /// were already scanned and hold no CR or LF).
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, lineStart: Int, from: Int, maxLength: Int) -> Outcome {
        // The furthest index the line's CR may sit at (saturated: limits may be configured as Int.max).
        let (sum, overflow) = lineStart.addingReportingOverflow(maxLength)
        let lastAllowed = overflow || sum == Int.max ? Int.max - 1 : sum
        let stop = min(bytes.count, lastAllowed + 1)
        var index = from
        while true {
            // Skip printable runs a word at a time: every byte that matters here (CR, LF) is below 0x0E.
            index = HTTPBytes.firstByte(below: HTTPBytes.cr + 1, in: bytes, from: index, to: stop)
            guard index < stop else { break }
            let byte = bytes[index]
            if byte == HTTPBytes.cr {
                guard index + 1 < bytes.count else { return .incomplete(resumeAt: index) }
                return bytes[index + 1] == HTTPBytes.lf ? .line(end: index) : .bareCarriageReturn
            }
            if byte == HTTPBytes.lf { return .bareLineFeed }
            index += 1
        }
        return index > lastAllowed ? .tooLong : .incomplete(resumeAt: index)
    }

    /// The index of the first CR LF CR LF lying wholly in `start..<end`: the last field line's end and the empty line
    /// that end a head. The response parser finds a head's end with it, and the server's answer memo where a
    /// buffered head ends; both only need the end, not each line checked.
    public static func headTerminator(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while true {
            // Skip printable runs a word at a time: the terminator starts with a CR, which is below 0x0E.
            index = HTTPBytes.firstByte(below: HTTPBytes.cr + 1, in: bytes, from: index, to: end)
            guard index + 4 <= end else { return nil }
            if bytes[index] == HTTPBytes.cr && bytes[index + 1] == HTTPBytes.lf && bytes[index + 2] == HTTPBytes.cr
                && bytes[index + 3] == HTTPBytes.lf
            {
                return index
            }
            index += 1
        }
    }
}
