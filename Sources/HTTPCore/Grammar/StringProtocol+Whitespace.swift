extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's OWS, RFC 9110 §5.6.3); no Foundation needed.
    public func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var lower = 0
        var upper = bytes.count
        while lower < upper, HTTPBytes.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, HTTPBytes.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}

extension Substring.UTF8View {
    /// The bytes without the optional whitespace (spaces and tabs) around a list element or parameter, as a slice of
    /// the same text (no copy: live polls and forwarded addresses read it on every request).
    @inlinable public var trimmingOWS: Substring.UTF8View {
        var text = self
        while let first = text.first, HTTPBytes.isWhitespace(first) { text = text.dropFirst() }
        while let last = text.last, HTTPBytes.isWhitespace(last) { text = text.dropLast() }
        return text
    }
}

extension Substring {
    /// The text without the optional whitespace around it (`Substring.UTF8View.trimmingOWS`), as a slice.
    @inlinable public var trimmingOWS: Substring { Substring(utf8.trimmingOWS) }
}
