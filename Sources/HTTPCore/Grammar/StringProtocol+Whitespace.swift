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
