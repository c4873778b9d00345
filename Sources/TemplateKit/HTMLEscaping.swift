/// HTML escaping on UTF-8 bytes.
///
/// Escaping works on bytes, never on `Character`s: `"` followed by U+0301 is a single `Character` that is not
/// equal to `"`, so a `Character` table lets the quote through (the bypass confirmed in swift-mustache, and in
/// `replacingOccurrences` on Linux). Every byte of `& < > " '` is ASCII and never part of a multi-byte sequence,
/// so a byte scan catches each one and leaves all other UTF-8 untouched.
public enum HTMLEscaping {
    /// Appends `string` to `output` with `& < > " '` replaced by `&amp; &lt; &gt; &quot; &#39;`, and without the
    /// characters `isDropped` names.
    public static func append(escaping string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            append(escaping: bytes, to: &output)
        }
    }

    /// Appends UTF-8 `bytes` to `output` with `& < > " '` replaced by entities, dropping control characters other
    /// than tab and newline and the bidirectional controls (issue 23: a NUL or a U+202E RIGHT-TO-LEFT OVERRIDE in an
    /// upstream name reached the page as it was, and an override reverses the text after it). Every value a template
    /// shows passes here, so this is the one place upstream text is cleaned; our own template text does not.
    public static func append(escaping bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        // Most text (names, counts, dates) has nothing to escape: one scan, then one bulk copy.
        guard let first = bytes.firstIndex(where: needsAttention) else {
            output.append(contentsOf: bytes)
            return
        }
        output.reserveCapacity(output.count + bytes.count + 16)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        var index = first
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: ampersand)
            case UInt8(ascii: "<"): output.append(contentsOf: lessThan)
            case UInt8(ascii: ">"): output.append(contentsOf: greaterThan)
            case UInt8(ascii: "\""): output.append(contentsOf: quote)
            case UInt8(ascii: "'"): output.append(contentsOf: apostrophe)
            default:
                let dropped = droppedLength(bytes, at: index)
                if dropped > 0 {
                    index += dropped
                    continue
                }
                output.append(byte)
            }
            index += 1
        }
    }

    /// The length of the dropped character at `index` (0 when it is kept): C0 controls but tab and newline, DEL,
    /// C1 controls (U+0080-U+009F), and the bidi controls ALM (U+061C), LRM and RLM (U+200E-U+200F), the embeddings
    /// and overrides (U+202A-U+202E) and the isolates (U+2066-U+2069). Swift strings are valid UTF-8, so a lead byte
    /// is followed by its continuation bytes.
    @inline(__always)
    private static func droppedLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        switch byte {
        case 0x09, 0x0A: return 0
        case 0x00...0x1F, 0x7F: return 1
        case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]): return 2
        case 0xD8 where index + 1 < bytes.count && bytes[index + 1] == 0x9C: return 2
        case 0xE2 where index + 2 < bytes.count:
            switch (bytes[index + 1], bytes[index + 2]) {
            case (0x80, 0x8E...0x8F), (0x80, 0xAA...0xAE), (0x81, 0xA6...0xA9): return 3
            default: return 0
            }
        default: return 0
        }
    }

    /// Whether `byte` is one of `& < > " '`, a control character, or the lead byte of a character that may be dropped.
    @inline(__always)
    private static func needsAttention(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte < 0x20 || byte == 0x7F
            || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    private static let ampersand: [UInt8] = Array("&amp;".utf8)
    private static let lessThan: [UInt8] = Array("&lt;".utf8)
    private static let greaterThan: [UInt8] = Array("&gt;".utf8)
    private static let quote: [UInt8] = Array("&quot;".utf8)
    private static let apostrophe: [UInt8] = Array("&#39;".utf8)

    /// `string` with `& < > " '` replaced by entities and the dropped characters left out.
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count + 16)
        append(escaping: string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
