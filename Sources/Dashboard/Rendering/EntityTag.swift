/// Strong entity tags over rendered bytes (RFC 9110 §8.8.3), so a live fragment that did not change answers 304.
/// Matching them against `If-None-Match` is HTTPCore's `IfNoneMatch`.
///
/// Two independent 64-bit FNV-1a hashes plus the length: not cryptographic (nothing secret depends on it), but a
/// collision between two renderings of one fragment is vanishingly unlikely, and it needs no dependency.
public enum EntityTag {
    /// `"<length>-<hash1><hash2>"`, quoted as a strong ETag.
    public static func strong(for bytes: [UInt8]) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(bytes.count, radix: 16))-\(hex(first))\(hex(second))\""
    }

    /// The tag of the gzip representation of the content `tag` names: the same opaque value with `-gzip` inside
    /// the quotes (RFC 9110 §8.8.3: each content coding is a representation with its own strong validator).
    public static func gzipVariant(of tag: String) -> String {
        guard tag.hasSuffix("\"") else { return tag + "-gzip" }
        return String(tag.dropLast()) + "-gzip\""
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
