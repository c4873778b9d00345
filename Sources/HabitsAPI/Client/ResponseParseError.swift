/// Why an upstream response could not be read. The connection is closed after any of these; the client reports
/// them as `HabitsAPIError.transport`.
public enum ResponseParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The status line is not `HTTP/x.y NNN reason` (RFC 9112 §4).
    case malformedStatusLine
    /// A major version other than 1.
    case unsupportedVersion
    /// A header line without a token name and colon, with a bare LF, a control byte, or an obs-fold (§5.2).
    case malformedHeader
    /// The status line, a header line or the whole head is over its limit.
    case headTooLarge
    /// More header fields than allowed.
    case tooManyHeaders
    /// Both `Transfer-Encoding` and `Content-Length`, or two different lengths: a smuggling signal (§6.3).
    case conflictingFraming
    /// A `Content-Length` that is not a decimal number.
    case invalidContentLength
    /// A transfer coding other than `chunked` alone.
    case unsupportedTransferEncoding
    /// A chunk-size line or chunk terminator that is not well formed, or a trailer section over its limit (§7.1).
    case invalidChunk
    /// The body is larger than allowed.
    case bodyTooLarge
    /// The connection closed in the middle of a response.
    case unexpectedEnd
    /// A 101 Switching Protocols, which we never ask for.
    case unexpectedUpgrade

    public var description: String {
        switch self {
        case .malformedStatusLine: "malformed status line"
        case .unsupportedVersion: "unsupported HTTP version"
        case .malformedHeader: "malformed header field"
        case .headTooLarge: "response head too large"
        case .tooManyHeaders: "too many header fields"
        case .conflictingFraming: "conflicting Content-Length / Transfer-Encoding"
        case .invalidContentLength: "invalid Content-Length"
        case .unsupportedTransferEncoding: "unsupported Transfer-Encoding"
        case .invalidChunk: "malformed chunked body"
        case .bodyTooLarge: "response body too large"
        case .unexpectedEnd: "connection closed mid-response"
        case .unexpectedUpgrade: "unexpected protocol upgrade"
        }
    }
}
