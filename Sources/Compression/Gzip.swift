import CZlib

/// gzip (RFC 1952) over the system's zlib: deflate once, keep the bytes (static files at start, pages once per
/// data version), so no request pays for compression.
public enum Gzip {
    /// Bodies smaller than this are sent as they are: the gzip header and trailer (18 bytes) and the extra
    /// `Content-Encoding` and `Vary` fields eat most of the gain, and a small body fits one packet either way.
    public static let minimumSize = 1024

    /// The gzip encoding of `bytes` at the best compression level (done once per content, so worth the CPU).
    public static func compress(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) -> [UInt8] {
        // windowBits 15 + 16 asks zlib for a gzip wrapper instead of the zlib one.
        Deflate.once(bytes, windowBits: 15 + 16, level: level, flush: Z_FINISH)
    }

    /// The bytes a gzip stream holds, or nil if it is not a complete, valid one (for tests and tools; the server
    /// never inflates what a client sends).
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: continue
                default: return nil  // Z_BUF_ERROR: truncated input; Z_DATA_ERROR: not gzip
                }
            }
        }
    }
}
