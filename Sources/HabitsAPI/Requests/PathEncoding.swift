/// Percent-encoding for the pieces of a URL we build (RFC 3986 §2.1, §3.3, §3.4).
///
/// Habit names and user ids are free text: they may hold `/`, `&`, `?`, `%`, spaces or non-ASCII letters. Everything
/// except the unreserved characters is encoded (as UTF-8 bytes), so a segment can never split into two or end the path.
public enum PathEncoding {
    /// Encodes one path segment: `Push-ups/Sit-ups` → `Push-ups%2FSit-ups`.
    public static func encodePathSegment(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    /// Encodes one query value, keeping `,` literal because the Habits API splits its lists on commas.
    public static func encodeQueryValue(_ text: String) -> String {
        encode(text) { isUnreserved($0) || $0 == UInt8(ascii: ",") }
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        // Most ids and names need nothing encoded: then the text itself, without a copy.
        if text.utf8.allSatisfy(keep) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
