/// HTML escaping on UTF-8 bytes.
///
/// Escaping works on bytes, never on `Character`s: `"` followed by U+0301 is a single `Character` that is not
/// equal to `"`, so a `Character` table lets the quote through (the bypass confirmed in swift-mustache, and in
/// `replacingOccurrences` on Linux). Every byte of `& < > " '` is ASCII and never part of a multi-byte sequence,
/// so a byte scan catches each one and leaves all other UTF-8 untouched.
public enum HTMLEscaping {
    /// Appends `string` to `output` with `& < > " '` replaced by `&amp; &lt; &gt; &quot; &#39;`.
    public static func append(escaping string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            append(escaping: bytes, to: &output)
        }
    }

    /// Appends UTF-8 `bytes` to `output` with `& < > " '` replaced by entities.
    public static func append(escaping bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        // Most text (names, counts, dates) has nothing to escape: one scan, then one bulk copy.
        guard let first = bytes.firstIndex(where: needsEscaping) else {
            output.append(contentsOf: bytes)
            return
        }
        output.reserveCapacity(output.count + bytes.count + 16)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        for byte in bytes[first...] {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: ampersand)
            case UInt8(ascii: "<"): output.append(contentsOf: lessThan)
            case UInt8(ascii: ">"): output.append(contentsOf: greaterThan)
            case UInt8(ascii: "\""): output.append(contentsOf: quote)
            case UInt8(ascii: "'"): output.append(contentsOf: apostrophe)
            default: output.append(byte)
            }
        }
    }

    /// Whether `byte` is one of `& < > " '`.
    @inline(__always)
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static let ampersand: [UInt8] = Array("&amp;".utf8)
    private static let lessThan: [UInt8] = Array("&lt;".utf8)
    private static let greaterThan: [UInt8] = Array("&gt;".utf8)
    private static let quote: [UInt8] = Array("&quot;".utf8)
    private static let apostrophe: [UInt8] = Array("&#39;".utf8)

    /// `string` with `& < > " '` replaced by entities.
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count + 16)
        append(escaping: string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
