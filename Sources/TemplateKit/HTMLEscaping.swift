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
        var runStart = 0
        for index in bytes.indices {
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            // Copy the unescaped run in one go; most text has no special bytes at all.
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    /// `string` with `& < > " '` replaced by entities.
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count + 16)
        append(escaping: string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
