import CZlib

/// A minimal PNG reader for tests: splits chunks, checks their CRCs and inflates stored-block zlib streams.
struct PNGReader {
    /// One chunk as found in the file.
    struct Chunk {
        var type: String
        var data: [UInt8]
        var storedCRC: UInt32
        var computedCRC: UInt32
    }

    /// A failure, with what was wrong.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The chunks in file order, after the 8-byte signature.
    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = 8
        while offset < png.count {
            guard offset + 12 <= png.count else { throw Failure(description: "truncated chunk at \(offset)") }
            let length = Int(bigEndian(png, offset))
            guard offset + 12 + length <= png.count else { throw Failure(description: "chunk overruns file") }
            let typeBytes = Array(png[offset + 4..<offset + 8])
            let data = Array(png[offset + 8..<offset + 8 + length])
            chunks.append(
                Chunk(
                    type: String(decoding: typeBytes, as: UTF8.self), data: data,
                    storedCRC: bigEndian(png, offset + 8 + length),
                    computedCRC: referenceCRC(typeBytes + data)))
            offset += 12 + length
        }
        return chunks
    }

    /// The inflated contents of a zlib stream made of stored deflate blocks; checks the header and Adler-32.
    /// Inflates any zlib stream
    /// with the system's zlib, which checks the Adler-32 itself.
    static func inflate(_ stream: [UInt8], expectedSize: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: expectedSize)
        var length = uLong(expectedSize)
        let status = uncompress(&out, &length, stream, uLong(stream.count))
        guard status == Z_OK, Int(length) == expectedSize else {
            throw Failure(description: "zlib uncompress failed with status \(status), \(length) bytes")
        }
        return out
    }

    /// Reads a big-endian 32-bit value.
    static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A bitwise CRC-32, independent of the table-driven one under test.
    static func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

}
