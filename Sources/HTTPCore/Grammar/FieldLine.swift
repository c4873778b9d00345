/// Where the name and the value of one `field-name ":" OWS field-value OWS` line sit (RFC 9112 §5): header and
/// trailer lines of requests and responses alike.
public struct FieldLine: Equatable, Sendable {
    /// Why a field line was refused; the request parser answers each with its own 400, the response parser
    /// folds them into one.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// A line starting with whitespace: obsolete line folding (RFC 9112 §5.2).
        case obsoleteLineFolding
        /// Whitespace between the field name and the colon (RFC 9112 §5.1).
        case whitespaceBeforeColon
        /// No colon after the name.
        case missingColon
        /// A name that is empty or holds a non-token byte.
        case invalidName
        /// A value holding a control character other than HTAB, or DEL (RFC 9110 §5.5).
        case invalidValue
    }

    /// The field name, a non-empty token.
    public var name: Range<Int>
    /// The field value with surrounding whitespace removed; may be empty.
    public var value: Range<Int>

    /// Creates a field line from where its parts sit.
    @inlinable public init(name: Range<Int>, value: Range<Int>) {
        self.name = name
        self.value = value
    }

    /// Splits and validates the line `bytes[range]` (CRLF excluded, not empty). Inlinable: the request parser
    /// runs it for every header line.
    @inlinable public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(Error)
        -> FieldLine
    {
        let start = range.lowerBound
        let end = range.upperBound
        // A line starting with whitespace continues the previous one: obs-fold, refused (RFC 9112 §5.2).
        guard !HTTPBytes.isWhitespace(bytes[start]) else { throw .obsoleteLineFolding }
        var index = start
        while index < end && HTTPBytes.isToken(bytes[index]) { index += 1 }
        guard index < end else { throw .missingColon }
        if bytes[index] != HTTPBytes.colon {
            // "Name : value" must be a 400, or a proxy and we could disagree on the name (RFC 9112 §5.1).
            guard HTTPBytes.isWhitespace(bytes[index]) else { throw .invalidName }
            var after = index
            while after < end && HTTPBytes.isWhitespace(bytes[after]) { after += 1 }
            throw after < end && bytes[after] == HTTPBytes.colon ? .whitespaceBeforeColon : .invalidName
        }
        guard index > start else { throw .invalidName }
        let name = start..<index

        var valueStart = index + 1
        var valueEnd = end
        guard HTTPBytes.allFieldValue(bytes, from: valueStart, to: end) else { throw .invalidValue }
        while valueStart < valueEnd && HTTPBytes.isWhitespace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && HTTPBytes.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        return FieldLine(name: name, value: valueStart..<valueEnd)
    }
}
