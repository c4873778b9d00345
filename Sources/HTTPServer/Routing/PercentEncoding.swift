/// Percent-encoding for URL path segments and query components (RFC 3986 §2.1).
///
/// Decoding happens exactly once, per segment, after splitting on `/`: that is what lets a habit called
/// `Push-ups/Sit-ups` travel as `/habits/Push-ups%2FSit-ups`, and what keeps `%252e` from ever becoming `.`.
public enum PercentEncoding {
    /// Encodes `segment` so it can be placed between two `/` of a path: everything but RFC 3986 unreserved
    /// characters is escaped, including `/`, `?`, `#` and `%`.
    public static func encodePathSegment(_ segment: String) -> String {
        encode(segment, spaceAsPlus: false)
    }

    /// Encodes a query or form component (names and values): like a path segment, but space becomes `+`.
    public static func encodeQueryComponent(_ component: String) -> String {
        encode(component, spaceAsPlus: true)
    }

    static func encode(_ string: String, spaceAsPlus: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes once. Returns nil for a malformed escape or bytes that are not UTF-8, so
    /// callers can refuse the input instead of guessing (a route miss or a 400).
    public static func decode(_ string: String) -> String? {
        decode(string.utf8, plusAsSpace: false, lenient: false)
    }

    /// Decodes a query/form component the way browsers encode it: `+` is a space, and a malformed escape
    /// is kept literally (WHATWG URL "percent-decode"), so a stray `%` in a search box is not an error.
    public static func decodeQueryComponent(_ component: Substring) -> String {
        // Lenient decoding never fails on escapes; invalid UTF-8 is repaired with U+FFFD.
        decode(component.utf8, plusAsSpace: true, lenient: true) ?? String(component)
    }

    static func decode(_ utf8: some Collection<UInt8>, plusAsSpace: Bool, lenient: Bool) -> String? {
        var needsWork = false
        for byte in utf8 where byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork {
            return String(validating: utf8, as: UTF8.self) ?? (lenient ? String(decoding: utf8, as: UTF8.self) : nil)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex, let high = hexValue(utf8[first]) {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let low = hexValue(utf8[second]) {
                        out.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                guard lenient else { return nil }
                out.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(validating: out, as: UTF8.self) ?? (lenient ? String(decoding: out, as: UTF8.self) : nil)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
