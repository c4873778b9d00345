import HTTPCore

/// `status-line = HTTP-version SP status-code SP [ reason-phrase ]` (RFC 9112 §4): the one piece of response
/// grammar only a client reads. Version, digits and reason bytes are HTTPCore's.
enum StatusLine {
    /// Parses the line `bytes[range]` (CRLF excluded) into its version and status code. A missing reason, even
    /// without the SP before it, is tolerated, as RFC 9112 §4 asks of clients; the reason itself is ignored.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ResponseParseError)
        -> (version: HTTPVersion, code: Int)
    {
        let start = range.lowerBound
        guard range.count >= 12, let version = HTTPVersion.parse(bytes, start..<start + 8),
            bytes[start + 8] == HTTPBytes.space, HTTPBytes.isDigit(bytes[start + 9]),
            HTTPBytes.isDigit(bytes[start + 10]), HTTPBytes.isDigit(bytes[start + 11])
        else { throw .malformedStatusLine }
        if range.count > 12 {
            guard bytes[start + 12] == HTTPBytes.space,
                HTTPBytes.allFieldValue(bytes, from: start + 13, to: range.upperBound)
            else { throw .malformedStatusLine }
        }
        guard version.major == 1 else { throw .unsupportedVersion }
        let code =
            Int(bytes[start + 9] &- 0x30) * 100 + Int(bytes[start + 10] &- 0x30) * 10
            + Int(bytes[start + 11] &- 0x30)
        guard code >= 100 else { throw .malformedStatusLine }
        return (version, code)
    }
}
