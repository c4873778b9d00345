import CZlib

/// A run of bytes deflated once so that it can go between other runs in any number of gzip streams without being
/// compressed again (issue 46: pages stitched from shared fragments, as Varnish stitches Edge Side Includes).
///
/// The blocks are whole, none is final, and they end on a byte boundary (zlib's sync flush), so pieces concatenate
/// into one valid deflate stream; `GzipStitcher` adds the header, the final block and the trailer, whose CRC-32 it
/// combines from the pieces' own.
public struct GzipPiece: Sendable {
    /// The deflate blocks.
    public let deflated: [UInt8]
    /// The CRC-32 of the bytes the blocks hold.
    public let crc: UInt32
    /// How many bytes the blocks hold.
    public let count: Int
    /// zlib's operator that moves a CRC-32 past `count` bytes (`crc32_combine_gen`), made once here so that stitching
    /// costs one carry-less multiplication per piece rather than a walk over the length's bits.
    let combiner: UInt

    /// The most bytes of a dictionary deflate can refer back into: its window.
    public static let window = 32 * 1024

    /// `bytes` deflated at `level`. With a `dictionary`, back-references may reach into its last `window` bytes, which
    /// compresses a run much like the one before it (the next card of a grid) as well as one deflate of both would:
    /// the piece is then valid only right after exactly those bytes.
    public init(_ bytes: [UInt8], after dictionary: [UInt8]? = nil, level: Int32 = Z_BEST_COMPRESSION) {
        // Negative windowBits asks zlib for raw blocks: no header or trailer of its own, the stitcher writes those.
        deflated = Deflate.once(
            bytes, windowBits: -15, level: level, dictionary: dictionary?.suffix(Self.window), flush: Z_SYNC_FLUSH)
        (crc, count, combiner) = Self.checks(bytes)
    }

    /// `bytes` in stored blocks, not compressed: valid anywhere and cheap enough to make per request, for the few
    /// bytes a page shows to one browser only.
    public init(stored bytes: [UInt8]) {
        var blocks: [UInt8] = []
        blocks.reserveCapacity(bytes.count + 5 * (bytes.count / 0xFFFF + 1))
        var start = 0
        repeat {
            let length = min(0xFFFF, bytes.count - start)
            // BFINAL 0, BTYPE 00 and the padding to the byte boundary are one zero byte; then LEN and its complement.
            blocks += [
                0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            blocks += bytes[start..<(start + length)]
            start += length
        } while start < bytes.count
        deflated = blocks
        (crc, count, combiner) = Self.checks(bytes)
    }

    private static func checks(_ bytes: [UInt8]) -> (UInt32, Int, UInt) {
        let crc = bytes.withUnsafeBufferPointer { UInt32(crc32_z(0, $0.baseAddress, $0.count)) }
        return (crc, bytes.count, crc32_combine_gen(bytes.count))
    }
}

/// One gzip stream (RFC 1952) made of `GzipPiece`s: their blocks one after another, then an empty final block and the
/// trailer. Costs a copy of the compressed bytes and one CRC-32 multiplication per piece; compresses nothing.
public struct GzipStitcher {
    private var output: [UInt8]
    private var crc: UInt = 0
    private var count = 0

    /// The fixed header: magic, deflate, no flags, no time, no extra flags, Unix.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    /// A final block of fixed Huffman codes holding only its end code: BFINAL 1, BTYPE 01, then seven zero bits.
    private static let finalBlock: [UInt8] = [0x03, 0x00]

    /// An empty stream, with room for `capacity` bytes of pieces.
    public init(reservingCapacity capacity: Int = 0) {
        output = []
        output.reserveCapacity(Self.header.count + capacity + Self.finalBlock.count + 8)
        output += Self.header
    }

    /// Adds `piece`'s bytes after those added so far.
    public mutating func append(_ piece: GzipPiece) {
        output += piece.deflated
        crc = crc32_combine_op(crc, UInt(piece.crc), piece.combiner)
        count += piece.count
    }

    /// The whole stream.
    public consuming func finish() -> [UInt8] {
        output += Self.finalBlock
        for value in [UInt32(truncatingIfNeeded: crc), UInt32(truncatingIfNeeded: count)] {
            for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        return output
    }
}
