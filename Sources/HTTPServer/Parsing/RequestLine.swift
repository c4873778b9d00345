/// The three parts of a request-line: `method SP request-target SP HTTP-version` (RFC 9112 §3).
struct RequestLine {
    /// The method token.
    var method: HTTPMethod
    /// The request-target, origin-form or `*`.
    var target: String
    /// The protocol version.
    var version: HTTPVersion

    /// Parses the line `bytes[range]` (CRLF excluded). Single spaces only: RFC 9112 §3 allows lenient
    /// whitespace splitting, but a lenient parser disagrees with strict proxies in front of it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(RequestParseError)
        -> RequestLine
    {
        let end = range.upperBound
        var index = range.lowerBound
        while index < end && HTTPBytes.isToken(bytes[index]) { index += 1 }
        guard index < end else { throw .invalidRequestLine }
        guard bytes[index] == HTTPBytes.space else { throw .invalidMethod }
        guard index > range.lowerBound else { throw .invalidRequestLine }
        let methodRange = range.lowerBound..<index

        index += 1
        let targetStart = index
        while index < end && HTTPBytes.isTarget(bytes[index]) { index += 1 }
        guard index < end else { throw .invalidRequestLine }
        guard bytes[index] == HTTPBytes.space else { throw .invalidTarget }
        guard index > targetStart else { throw .invalidRequestLine }
        let targetRange = targetStart..<index

        let version = try parseVersion(bytes, index + 1..<end)
        let method = HTTPMethod(rawValue: string(bytes, methodRange))
        // Origin-form only (RFC 9112 §3.2.1); `*` is the asterisk-form of a server-wide OPTIONS (§3.2.4).
        // Absolute- and authority-form are refused: we are not a proxy.
        let first = bytes[targetStart]
        if first == HTTPBytes.asterisk {
            guard targetRange.count == 1, method == .options else { throw .invalidTarget }
        } else if first != HTTPBytes.slash {
            throw .invalidTarget
        }
        return RequestLine(method: method, target: string(bytes, targetRange), version: version)
    }

    /// Parses `HTTP/DIGIT.DIGIT`. HTTP/1.x with x > 1 is served as HTTP/1.1 (RFC 9110 §2.5: process as the
    /// highest minor version implemented); any other major version is 505.
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(RequestParseError) -> HTTPVersion
    {
        let start = range.lowerBound
        guard range.count == 8, bytes[start] == 0x48, bytes[start + 1] == 0x54, bytes[start + 2] == 0x54,
            bytes[start + 3] == 0x50, bytes[start + 4] == HTTPBytes.slash, bytes[start + 6] == 0x2E,
            case let major = bytes[start + 5] &- 0x30, major <= 9,
            case let minor = bytes[start + 7] &- 0x30, minor <= 9
        else { throw .invalidVersion }
        guard major == 1 else { throw .unsupportedVersion }
        return minor == 0 ? .http1_0 : .http1_1
    }

    /// Decodes `bytes[range]` once, as UTF-8 (all bytes here are ASCII, already validated).
    @inline(__always) static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
