/// Where the name and the value of one `field-name ":" OWS field-value OWS` line sit (RFC 9112 §5).
struct FieldLine {
    /// The field name, a non-empty token.
    var name: Range<Int>
    /// The field value with surrounding whitespace removed; may be empty.
    var value: Range<Int>

    /// Splits and validates the line `bytes[range]` (CRLF excluded, not empty).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(RequestParseError) -> FieldLine {
        let start = range.lowerBound
        let end = range.upperBound
        // A line starting with whitespace continues the previous one: obs-fold, refused (RFC 9112 §5.2).
        guard !HTTPBytes.isWhitespace(bytes[start]) else { throw .obsoleteLineFolding }
        var index = start
        while index < end && HTTPBytes.isToken(bytes[index]) { index += 1 }
        guard index < end else { throw .missingColon }
        if bytes[index] != HTTPBytes.colon {
            // "Name : value" must be a 400, or a proxy and we could disagree on the name (RFC 9112 §5.1).
            guard HTTPBytes.isWhitespace(bytes[index]) else { throw .invalidFieldName }
            var after = index
            while after < end && HTTPBytes.isWhitespace(bytes[after]) { after += 1 }
            throw after < end && bytes[after] == HTTPBytes.colon ? .whitespaceBeforeColon : .invalidFieldName
        }
        guard index > start else { throw .invalidFieldName }
        let name = start..<index

        var valueStart = index + 1
        var valueEnd = end
        guard HTTPBytes.allFieldValue(bytes, from: valueStart, to: end) else { throw .invalidFieldValue }
        while valueStart < valueEnd && HTTPBytes.isWhitespace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && HTTPBytes.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        return FieldLine(name: name, value: valueStart..<valueEnd)
    }
}
