/// The list syntax of field values, `#element` (RFC 9110 §5.6.1): elements separated by commas with optional
/// whitespace around them, where a recipient must skip empty elements.
public enum HTTPList {
    /// Calls `body` with the range of every non-empty element of `bytes`, whitespace trimmed, in order. For lists
    /// whose elements hold no quoted commas (tokens: `Connection`, `Transfer-Encoding`). Scans in place: the
    /// server runs it on request fields.
    @inlinable public static func forEachElement<E: Error>(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) throws(E) -> Void
    ) throws(E) {
        var index = 0
        while index <= bytes.count {
            var elementEnd = index
            while elementEnd < bytes.count && bytes[elementEnd] != HTTPBytes.comma { elementEnd += 1 }
            var start = index
            var end = elementEnd
            while start < end && HTTPBytes.isWhitespace(bytes[start]) { start += 1 }
            while end > start && HTTPBytes.isWhitespace(bytes[end - 1]) { end -= 1 }
            if start < end { try body(start..<end) }
            index = elementEnd + 1
        }
    }
}
