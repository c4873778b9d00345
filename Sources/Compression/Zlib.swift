import CZlib

/// zlib streams (RFC 1950) over the system's zlib: what PNG's IDAT chunk holds.
public enum Zlib {
    /// A zlib stream of `data` deflated at the best level (images are made once and cached).
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&out, &length, data, uLong(data.count), Z_BEST_COMPRESSION)
        // compressBound guarantees the room; only a failed allocation inside zlib could fail here.
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        out.removeLast(out.count - Int(length))
        return out
    }
}
