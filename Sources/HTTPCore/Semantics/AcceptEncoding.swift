/// What a request's `Accept-Encoding` field allows (RFC 9110 §12.5.3), for the one coding we produce: gzip.
public enum AcceptEncoding {
    /// True when `field` accepts gzip with a non-zero quality: `gzip`, `x-gzip` (RFC 9110 §8.4.1.3) or `*`,
    /// unless gzip itself is given `q=0`. No field means no compression: a client that says nothing may not
    /// decode it (RFC 9110 allows any coding then, but real clients that skip the field are tools like `nc`).
    public static func allowsGzip(_ field: String?) -> Bool {
        guard let field else { return false }
        return plainList(field) ?? parsed(field)
    }

    /// The general reading of a field: members split on commas, their `q` parameters, the wildcard.
    static func parsed(_ field: String) -> Bool {
        var gzip: Bool?
        var wildcard: Bool?
        for member in field.split(separator: ",") {
            let parts = member.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = first.trimmingASCIIWhitespace().lowercased()
            let accepted = parts.dropFirst().allSatisfy { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "q" else { return true }
                return !isZero(pair[1].trimmingASCIIWhitespace())
            }
            switch coding {
            case "gzip", "x-gzip": gzip = accepted && (gzip ?? true)
            case "*": wildcard = accepted
            default: continue
            }
        }
        return gzip ?? wildcard ?? false
    }

    private static let gzip = Array("gzip".utf8)
    private static let xGzip = Array("x-gzip".utf8)

    /// The answer for a field without parameters or a wildcard (`gzip, deflate, br`, `identity`: what browsers and
    /// tools send), read from its bytes without splitting (issue 21: the general parse cost about 0.5 µs a page):
    /// whether a member is `gzip` or `x-gzip`; nil for anything else, which the general parse reads.
    static func plainList(_ field: String) -> Bool? {
        let gzip = Self.gzip
        let xGzip = Self.xGzip
        var found = false
        // The member so far: its length, whether it still matches each name, and whether white space ended it.
        var length = 0
        var isGzip = true
        var isXGzip = true
        var trailing = false
        for byte in field.utf8 {
            switch byte {
            case UInt8(ascii: ";"), UInt8(ascii: "*"), 0x80...:
                return nil
            case UInt8(ascii: ","):
                found = found || (isGzip && length == gzip.count) || (isXGzip && length == xGzip.count)
                (length, isGzip, isXGzip, trailing) = (0, true, true, false)
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                trailing = length > 0
            default:
                let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if trailing { (isGzip, isXGzip) = (false, false) }
                isGzip = isGzip && length < gzip.count && gzip[length] == lower
                isXGzip = isXGzip && length < xGzip.count && xGzip[length] == lower
                length += 1
            }
        }
        return found || (isGzip && length == gzip.count) || (isXGzip && length == xGzip.count)
    }

    /// `q=0`, `0.`, `0.0`, `0.00`, `0.000` (RFC 9110 §12.4.2); anything unreadable counts as not zero.
    private static func isZero(_ value: String) -> Bool {
        guard value.first == "0" else { return false }
        return value.dropFirst().allSatisfy { $0 == "." || $0 == "0" }
    }
}
