import DashboardCore
import Hashing

/// Strong entity tags over rendered bytes (RFC 9110 §8.8.3), so a live fragment that did not change answers 304.
/// Matching them against `If-None-Match` is HTTPCore's `IfNoneMatch`.
///
/// A 128-bit digest of four FNV-1a lanes (`FNV1a.striped`) plus the length: not cryptographic (nothing secret depends on
/// it), but a collision between two renderings of one fragment is vanishingly unlikely, and it needs no dependency.
/// Four lanes side by side rather than `FNV1a.Wide`'s two over every byte: the tag was 7 % of rendering Home.
public enum EntityTag {
    /// `"<length>-<hash1><hash2>"`, quoted as a strong ETag.
    public static func strong(for bytes: [UInt8]) -> String {
        let digest = FNV1a.striped(bytes)
        return "\"\(String(bytes.count, radix: 16))-\(FNV1a.hex(digest.first))\(FNV1a.hex(digest.second))\""
    }

    /// The tag of the gzip representation of the content `tag` names: the same opaque value with `-gzip` inside
    /// the quotes (RFC 9110 §8.8.3: each content coding is a representation with its own strong validator).
    public static func gzipVariant(of tag: String) -> String {
        guard tag.hasSuffix("\"") else { return tag + "-gzip" }
        return String(tag.dropLast()) + "-gzip\""
    }
}
