import HTTPCore

extension Request {
    /// Cookies from every `Cookie` field (RFC 6265 §5.4: `a=1; b=2`); when a name repeats, the first wins,
    /// since browsers send the most specific path first. Values are returned as sent (no decoding).
    ///
    /// Split on bytes, as browsers and the RFC do: splitting `Character`s would keep `;` or `=` followed by a
    /// combining mark inside a name or value (found by Fuzz/FormsFuzz).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        forEachCookie { name, value in
            let name = String(decoding: name, as: UTF8.self)
            if result[name] == nil { result[name] = String(decoding: value, as: UTF8.self) }
            return true
        }
        return result
    }

    /// The first cookie called `name`: what `cookies[name]` gives, without building the whole dictionary (every
    /// page reads the browser's cookie, so this is on the hot path).
    public func cookie(named name: String) -> String? {
        cookies(named: name, limit: 1).first
    }

    /// Every cookie called `name`, in the order sent, at most `limit` of them: a server that checks each (a signed
    /// cookie) must not let forged copies in front of the real one hide it (cookie tossing from a sibling
    /// subdomain, issue 23), nor be made to check thousands.
    public func cookies(named name: String, limit: Int) -> [String] {
        var found: [String] = []
        var wanted = name
        wanted.withUTF8 { wanted in
            forEachCookie { cookieName, value in
                guard cookieName.elementsEqual(wanted) else { return true }
                found.append(String(decoding: value, as: UTF8.self))
                return found.count < limit
            }
        }
        return found
    }

    /// Calls `body` with each cookie's name and value in order, as UTF-8 bytes, until it returns false.
    ///
    /// Scans bytes, not `Character`s: the separators are ASCII, and grapheme breaking cost most of a cached page's
    /// CPU time (issue 9). Names and values are trimmed of spaces and tabs, one pair of surrounding quotes is
    /// dropped from a value, pairs without `=` or with an empty name are skipped.
    private func forEachCookie(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        for field in headers.fields where HTTPHeaders.equal(field.name, "Cookie") {
            var value = field.value
            let more = value.withUTF8 { bytes in Self.scanCookies(bytes, body) }
            if !more { return }
        }
    }

    /// One `Cookie` field's pairs; false when `body` asked to stop.
    private static func scanCookies(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ";") { end += 1 }
            if let equals = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "=") }) {
                let name = trimmed(bytes, start, equals)
                var value = trimmed(bytes, equals + 1, end)
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
                    bytes[value.upperBound - 1] == UInt8(ascii: "\"")
                {
                    value = (value.lowerBound + 1)..<(value.upperBound - 1)
                }
                if !name.isEmpty, !body(slice(bytes, name), slice(bytes, value)) { return false }
            }
            start = end + 1
        }
        return true
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var start = start
        var end = end
        while start < end && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) { start += 1 }
        while end > start && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t")) { end -= 1 }
        return start..<end
    }

    private static func slice(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }
}
