import HTTPCore

/// The three parts of a request-line: `method SP request-target SP HTTP-version` (RFC 9112 §3).
struct RequestLine {
    /// The method token.
    var method: HTTPMethod
    /// The request-target in origin-form (an absolute-form target is reduced to its path and query) or `*`.
    var target: String
    /// The authority of an absolute-form target (`host[:port]`), which replaces the Host field; nil otherwise.
    var authority: String?
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
        // Origin-form (RFC 9112 §3.2.1), or `*`, the asterisk-form of a server-wide OPTIONS (§3.2.4), or the
        // absolute-form a server must accept (§3.2.2). The authority-form is CONNECT's, and we are not a proxy.
        let first = bytes[targetStart]
        if first == HTTPBytes.slash {
            return RequestLine(method: method, target: string(bytes, targetRange), authority: nil, version: version)
        }
        if first == HTTPBytes.asterisk {
            guard targetRange.count == 1, method == .options else { throw .invalidTarget }
            return RequestLine(method: method, target: "*", authority: nil, version: version)
        }
        let (authority, rest) = try absoluteForm(bytes, targetRange)
        let target: String
        if rest.isEmpty {
            // An empty path is "/", except for OPTIONS, where it asks about the server itself (RFC 9112 §3.2.4).
            target = method == .options ? "*" : "/"
        } else if bytes[rest.lowerBound] == UInt8(ascii: "?") {
            target = "/" + string(bytes, rest)
        } else {
            target = string(bytes, rest)
        }
        return RequestLine(method: method, target: target, authority: string(bytes, authority), version: version)
    }

    /// Splits `http://authority/path?query` (scheme `http` or `https`, any case) into the authority and the
    /// rest (path and query, possibly empty). The authority must be a valid Host value, non-empty and without
    /// userinfo (`user@host` is refused, RFC 9110 §4.2.4), since it takes the Host field's place.
    private static func absoluteForm(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(RequestParseError) -> (authority: Range<Int>, rest: Range<Int>)
    {
        var index = range.lowerBound
        for letter in "http".utf8 {
            guard index < range.upperBound, bytes[index] | 0x20 == letter else { throw .invalidTarget }
            index += 1
        }
        if index < range.upperBound && bytes[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
        for byte in "://".utf8 {
            guard index < range.upperBound, bytes[index] == byte else { throw .invalidTarget }
            index += 1
        }
        let authorityStart = index
        while index < range.upperBound && bytes[index] != HTTPBytes.slash && bytes[index] != UInt8(ascii: "?") {
            // `@` (userinfo) is not a Host byte, so it fails here too.
            guard HTTPBytes.isHost(bytes[index]) else { throw .invalidTarget }
            index += 1
        }
        guard index > authorityStart else { throw .invalidTarget }
        return (authorityStart..<index, index..<range.upperBound)
    }

    /// Parses `HTTP/DIGIT.DIGIT`. HTTP/1.x with x > 1 is served as HTTP/1.1 (RFC 9110 §2.5: process as the
    /// highest minor version implemented); any other major version is 505.
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(RequestParseError) -> HTTPVersion
    {
        guard let version = HTTPVersion.parse(bytes, range) else { throw .invalidVersion }
        guard version.major == 1 else { throw .unsupportedVersion }
        return version.minor == 0 ? .http1_0 : .http1_1
    }

    /// Decodes `bytes[range]` once, as UTF-8 (all bytes here are ASCII, already validated).
    @inline(__always) static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
