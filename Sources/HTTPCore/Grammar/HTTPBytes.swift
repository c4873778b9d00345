/// Byte classes of RFC 9110 / 9112, as branch-free bitmask tests (no table lookups, no lazy globals).
///
/// Shared by the server's request parser and the client's response parser. Everything is `@inlinable` (constants
/// as computed properties) so the parsers, in other modules, still compile these tests into their own loops
/// instead of calling across the module boundary for every byte.
public enum HTTPBytes {
    /// CR
    @inlinable public static var cr: UInt8 { 0x0D }
    /// LF
    @inlinable public static var lf: UInt8 { 0x0A }
    /// SP
    @inlinable public static var space: UInt8 { 0x20 }
    /// HTAB
    @inlinable public static var tab: UInt8 { 0x09 }
    /// ":"
    @inlinable public static var colon: UInt8 { 0x3A }
    /// ";"
    @inlinable public static var semicolon: UInt8 { 0x3B }
    /// "="
    @inlinable public static var equals: UInt8 { 0x3D }
    /// ","
    @inlinable public static var comma: UInt8 { 0x2C }
    /// DQUOTE
    @inlinable public static var quote: UInt8 { 0x22 }
    /// "\\"
    @inlinable public static var backslash: UInt8 { 0x5C }
    /// "/"
    @inlinable public static var slash: UInt8 { 0x2F }
    /// "*"
    @inlinable public static var asterisk: UInt8 { 0x2A }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    /// (RFC 9110 §5.6.2), as bits 0–63 and 64–127. `HTTPBytesTests` checks the masks against that list.
    @inlinable static var tokenLow: UInt64 { 0x03FF_6CFA_0000_0000 }
    @inlinable static var tokenHigh: UInt64 { 0x57FF_FFFF_C7FF_FFFE }

    /// Bytes of `uri-host [":" port]` (RFC 3986 reg-name, IP-literal and port, plus "%" of pct-encoded).
    @inlinable static var hostLow: UInt64 { 0x2FFF_7FF2_0000_0000 }
    @inlinable static var hostHigh: UInt64 { 0x47FF_FFFE_AFFF_FFFE }

    /// Whether `byte` is a token character (method and field names).
    @inlinable @inline(__always) public static func isToken(_ byte: UInt8) -> Bool {
        byte < 64 ? (tokenLow >> UInt64(byte)) & 1 == 1 : byte < 128 && (tokenHigh >> UInt64(byte &- 64)) & 1 == 1
    }

    /// Whether `byte` may appear in a Host value.
    @inlinable @inline(__always) public static func isHost(_ byte: UInt8) -> Bool {
        byte < 64 ? (hostLow >> UInt64(byte)) & 1 == 1 : byte < 128 && (hostHigh >> UInt64(byte &- 64)) & 1 == 1
    }

    /// field-vchar / SP / HTAB (RFC 9110 §5.5): everything but controls other than HTAB, and DEL.
    @inlinable @inline(__always) public static func isFieldValue(_ byte: UInt8) -> Bool {
        (byte >= 0x20 && byte != 0x7F) || byte == tab
    }

    /// Bytes allowed in a request-target: visible ASCII but "#" (a fragment is never sent, RFC 9112 §3.2).
    /// Stricter grammar (RFC 3986) is left to the router, because browsers send `|`, `^`, `[`, `]`, `{`, `}`
    /// unescaped (WHATWG URL percent-encode sets).
    @inlinable @inline(__always) public static func isTarget(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != 0x23
    }

    /// SP or HTAB: optional whitespace (OWS, BWS).
    @inlinable @inline(__always) public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// DIGIT (RFC 5234 §B.1): "0" to "9".
    @inlinable @inline(__always) public static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 <= 9
    }

    /// The value of a hexadecimal digit, or nil.
    @inlinable @inline(__always) public static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte &- 0x30)
        case 0x41...0x46: Int(byte &- 0x41 &+ 10)
        case 0x61...0x66: Int(byte &- 0x61 &+ 10)
        default: nil
        }
    }

    /// Whether `bytes` equals the lowercase ASCII `name`, ignoring the case of letters. Valid only for token
    /// bytes, where `| 0x20` folds nothing but letters onto letters.
    @inlinable @inline(__always) public static func equalsLowercase(
        _ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString
    ) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] {
            return false
        }
        return true
    }

    // MARK: - Word-at-a-time scanning

    /// Eight copies of one byte value.
    @inlinable @inline(__always) static func repeated(_ byte: UInt8) -> UInt64 {
        0x0101_0101_0101_0101 &* UInt64(byte)
    }

    /// Whether any byte of `word` is below `limit` (≤ 128): exact as a yes/no answer ("hasless", Bit Twiddling
    /// Hacks), though a borrow may flag the wrong byte, so callers locate the byte one at a time.
    @inlinable @inline(__always) public static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- repeated(limit)) & ~word & repeated(0x80) != 0
    }

    /// The index of the first byte in `start..<end` that is below `limit`, or `end`. Eight bytes per step: head
    /// lines are almost all printable, so this is the loop the parser spends its time in.
    @inlinable @inline(__always) public static func firstByte(
        below limit: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if hasByte(below: limit, in: word) { break }
                index += 8
            }
        }
        while index < end && bytes[index] >= limit { index += 1 }
        return index
    }

    /// Whether `bytes[start..<end]` are all field-value bytes (no controls but HTAB, no DEL), eight at a time.
    @inlinable public static func allFieldValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> Bool
    {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let del = word ^ repeated(0x7F)
                if hasByte(below: 0x20, in: word) || hasByte(below: 1, in: del) { break }
                index += 8
            }
        }
        while index < end {
            guard isFieldValue(bytes[index]) else { return false }
            index += 1
        }
        return true
    }
}
