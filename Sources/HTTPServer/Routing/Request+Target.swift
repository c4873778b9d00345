extension Request {
    /// The path part of the target (before `?`), still percent-encoded exactly as sent.
    public var path: String {
        let target = head.target
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<question])
    }

    /// The raw query string after `?` (still encoded), or nil when the target has none.
    public var rawQuery: Substring? {
        let target = head.target
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        // Step one byte, not one Character: `?` + U+0301 is a single Character (found by Fuzz/FormsFuzz; the request
        // parser only lets ASCII targets through, so only targets built in code could meet it).
        return target[target.utf8.index(after: question)...]
    }

    /// The path split on `/`, each segment percent-decoded exactly once (`%2F` stays inside its segment).
    ///
    /// `/` gives `[]`, `/a/b` gives `["a", "b"]`, `/a/` gives `["a", ""]`. Empty when the path is not valid
    /// percent-encoded UTF-8; the router answers such paths with 400 before any handler sees them.
    public var pathSegments: [String] { decodedPathSegments() ?? [] }

    /// The decoded query parameters (`+` is a space); empty when there is no query.
    public var query: QueryParameters {
        guard let raw = rawQuery else { return QueryParameters() }
        return QueryParameters(parsing: raw)
    }

    /// The path segments decoded once, or nil if a segment has a malformed escape or is not UTF-8.
    func decodedPathSegments() -> [String]? {
        Self.decodeSegments(of: path)
    }

    /// Splits an origin-form path on `/` and decodes each segment once.
    static func decodeSegments(of path: String) -> [String]? {
        // On the bytes, not Characters: the target is ASCII (the parser's rule), and a Character split cost a
        // visible share of a warm page (issue 21).
        var raw = path.utf8[...]
        if raw.first == UInt8(ascii: "/") { raw = raw.dropFirst() }
        if raw.isEmpty { return [] }
        var segments: [String] = []
        for piece in raw.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let decoded = PercentEncoding.decode(piece, plusAsSpace: false, lenient: false) else {
                return nil
            }
            segments.append(decoded)
        }
        return segments
    }
}
