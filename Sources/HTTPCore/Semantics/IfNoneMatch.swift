/// The `If-None-Match` precondition (RFC 9110 §13.1.2), evaluated against the entity tag of what would be sent:
/// the one matcher for static files, rendered fragments and the simulated upstream.
public enum IfNoneMatch {
    /// Whether the field value `fieldValue` names `etag`, so a GET or HEAD is answered 304 Not Modified.
    ///
    /// - `*` (the whole value) matches: a current representation exists whenever a tag is offered.
    /// - Otherwise the value must be a list of entity-tags (`[W/] DQUOTE *etagc DQUOTE`, RFC 9110 §8.8.3);
    ///   empty list elements are skipped (§5.6.1). Comparison is weak (§8.8.3.2): `W/` is ignored on both sides.
    /// - A missing field, and a value that is not well formed (an unquoted tag, `*` inside a list, a lowercase
    ///   `w/`, two tags without a comma), match nothing: a full 200 is always a correct answer, a wrong 304 never.
    public static func matches(_ fieldValue: String?, etag: String) -> Bool {
        guard var fieldValue else { return false }
        var etag = etag
        return fieldValue.withUTF8 { condition in
            etag.withUTF8 { tag in
                let weakPrefix = tag.count >= 2 && tag[0] == UInt8(ascii: "W") && tag[1] == HTTPBytes.slash
                return matches(condition, opaqueTag: UnsafeBufferPointer(rebasing: tag[(weakPrefix ? 2 : 0)...]))
            }
        }
    }

    /// The list walk behind `matches(_:etag:)`; `opaqueTag` is our tag with its quotes and without `W/`.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, opaqueTag: UnsafeBufferPointer<UInt8>) -> Bool {
        var lower = 0
        var upper = bytes.count
        while lower < upper && HTTPBytes.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower && HTTPBytes.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        if upper - lower == 1 && bytes[lower] == HTTPBytes.asterisk { return true }

        var matched = false
        var index = lower
        while index < upper {
            let byte = bytes[index]
            // Between elements: OWS and the commas of empty elements.
            if HTTPBytes.isWhitespace(byte) || byte == HTTPBytes.comma {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "W") {
                guard index + 1 < upper, bytes[index + 1] == HTTPBytes.slash else { return false }
                index += 2
            }
            guard index < upper, bytes[index] == HTTPBytes.quote else { return false }
            let opaqueStart = index
            index += 1
            while index < upper && bytes[index] != HTTPBytes.quote {
                guard isEntityTagByte(bytes[index]) else { return false }
                index += 1
            }
            guard index < upper else { return false }  // no closing quote
            index += 1
            if !matched && opaqueTag.elementsEqual(UnsafeBufferPointer(rebasing: bytes[opaqueStart..<index])) {
                matched = true
            }
            // After an element: OWS, then a comma or the end.
            while index < upper && HTTPBytes.isWhitespace(bytes[index]) { index += 1 }
            guard index == upper || bytes[index] == HTTPBytes.comma else { return false }
        }
        return matched
    }

    /// etagc = "!" / %x23-7E / obs-text (RFC 9110 §8.8.3): visible bytes but DQUOTE, and obs-text.
    private static func isEntityTagByte(_ byte: UInt8) -> Bool {
        byte == 0x21 || (byte >= 0x23 && byte != 0x7F)
    }
}
