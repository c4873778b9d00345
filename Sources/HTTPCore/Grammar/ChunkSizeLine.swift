/// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1.1): the line in front of every chunk, for requests and responses alike.
public enum ChunkSizeLine {
    /// What is wrong with a chunk-size line; each parser maps it onto its own error.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// The size is not plain hexadecimal, or something other than an extension follows it.
        case invalidSize
        /// A malformed chunk extension.
        case invalidExtension
    }

    /// Parses the line `bytes[range]` (CRLF excluded) and returns the chunk size, saturated at `Int.max`.
    ///
    /// Strict on purpose: no sign, no `0x`, no whitespace before the size or at the end of the line. Parsers that
    /// accept those disagree with each other, which is what chunked request smuggling feeds on.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(Error) -> Int {
        let end = range.upperBound
        var index = range.lowerBound
        var size = 0
        while index < end, let digit = HTTPBytes.hexValue(bytes[index]) {
            // Saturate: an overflowing size is still "larger than the body limit", which the caller reports.
            // (Leading zeros are allowed by the grammar, so the number of digits alone is no limit; the caller's
            // chunk-line limit bounds the work.)
            size = size > (Int.max - digit) / 16 ? Int.max : size * 16 + digit
            index += 1
        }
        guard index > range.lowerBound else { throw .invalidSize }
        guard index < end else { return size }
        // After the digits only BWS ";" may follow (the start of an extension).
        var afterSpace = index
        while afterSpace < end && HTTPBytes.isWhitespace(bytes[afterSpace]) { afterSpace += 1 }
        guard afterSpace < end, bytes[afterSpace] == HTTPBytes.semicolon else { throw .invalidSize }
        try validateExtensions(bytes, afterSpace..<end)
        return size
    }

    /// chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ), ext-val = token / quoted-string.
    /// Extensions are validated and ignored.
    private static func validateExtensions(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(Error)
    {
        let end = range.upperBound
        var index = range.lowerBound
        func skipWhitespace() {
            while index < end && HTTPBytes.isWhitespace(bytes[index]) { index += 1 }
        }
        func skipToken() throws(Error) {
            let start = index
            while index < end && HTTPBytes.isToken(bytes[index]) { index += 1 }
            guard index > start else { throw .invalidExtension }
        }
        while index < end {
            skipWhitespace()
            guard index < end, bytes[index] == HTTPBytes.semicolon else { throw .invalidExtension }
            index += 1
            skipWhitespace()
            try skipToken()
            let afterName = index
            skipWhitespace()
            guard index < end, bytes[index] == HTTPBytes.equals else {
                // Whitespace is only allowed before ";" or around "=": rewind, so the loop demands a ";".
                index = afterName
                continue
            }
            index += 1
            skipWhitespace()
            if index < end && bytes[index] == HTTPBytes.quote {
                try skipQuotedString(bytes, &index, end)
            } else {
                try skipToken()
            }
        }
    }

    /// quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE (RFC 9110 §5.6.4); `index` is at the opening quote.
    private static func skipQuotedString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int)
        throws(Error)
    {
        index += 1
        while index < end {
            let byte = bytes[index]
            if byte == HTTPBytes.quote {
                index += 1
                return
            }
            if byte == HTTPBytes.backslash {
                index += 1
                guard index < end else { break }
            }
            // qdtext and the escaped byte of a quoted-pair: HTAB, SP, VCHAR, obs-text.
            guard HTTPBytes.isFieldValue(bytes[index]) else { throw .invalidExtension }
            index += 1
        }
        throw .invalidExtension
    }
}
