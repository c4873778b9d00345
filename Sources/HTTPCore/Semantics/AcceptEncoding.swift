/// What a request's `Accept-Encoding` field allows (RFC 9110 §12.5.3), for the one coding we produce: gzip.
public enum AcceptEncoding {
    /// True when `field` accepts gzip with a non-zero quality: `gzip`, `x-gzip` (RFC 9110 §8.4.1.3) or `*`,
    /// unless gzip itself is given `q=0`. No field means no compression: a client that says nothing may not
    /// decode it (RFC 9110 allows any coding then, but real clients that skip the field are tools like `nc`).
    public static func allowsGzip(_ field: String?) -> Bool {
        guard let field else { return false }
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

    /// `q=0`, `0.`, `0.0`, `0.00`, `0.000` (RFC 9110 §12.4.2); anything unreadable counts as not zero.
    private static func isZero(_ value: String) -> Bool {
        guard value.first == "0" else { return false }
        return value.dropFirst().allSatisfy { $0 == "." || $0 == "0" }
    }
}
