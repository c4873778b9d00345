import CZlib

/// One deflate of a whole buffer in one call, for the gzip of a page (`Gzip.compress`) and for the pieces stitched
/// into one (`GzipPiece`): zlib set up, fed, flushed and torn down, the output sized by `deflateBound`.
enum Deflate {
    /// `bytes` deflated at `level` with `windowBits` (15 + 16 for a gzip member, -15 for raw blocks), back-references
    /// allowed into `dictionary`'s last window (raw blocks only), ended by `flush` (`Z_FINISH`, or `Z_SYNC_FLUSH` for a
    /// piece that ends on a byte boundary).
    static func once(
        _ bytes: [UInt8], windowBits: Int32, level: Int32, dictionary: ArraySlice<UInt8>? = nil, flush: Int32
    ) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { preconditionFailure("deflateInit2 failed: zlib cannot allocate its state") }
        defer { deflateEnd(&stream) }
        if let dictionary, !dictionary.isEmpty {
            let status = dictionary.withUnsafeBufferPointer {
                deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count))
            }
            precondition(status == Z_OK, "deflateSetDictionary failed on a fresh stream (status \(status))")
        }
        // deflateBound is for Z_FINISH; a sync flush adds its empty stored block (5 bytes) and at most a partial byte.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, flush)
            }
        }
        let done = flush == Z_FINISH ? status == Z_STREAM_END : status == Z_OK && stream.avail_out > 0
        precondition(done && stream.avail_in == 0, "deflate did not end within its bound (status \(status))")
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}
