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
    static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, stream[0] & 0x0F == 8, (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0 else {
            throw Failure(description: "bad zlib header")
        }
        var out: [UInt8] = []
        var offset = 2
        while true {
            let header = stream[offset]
            guard header & 0b110 == 0 else {
                throw Failure(description: "block type \((header >> 1) & 3) is not stored")
            }
            let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
            let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
            guard length == ~complement & 0xFFFF else { throw Failure(description: "LEN/NLEN mismatch") }
            out += stream[offset + 5..<offset + 5 + length]
            offset += 5 + length
            if header & 1 == 1 { break }
        }
        guard offset + 4 == stream.count else { throw Failure(description: "trailing bytes after final block") }
        guard bigEndian(stream, offset) == referenceAdler32(out) else {
            throw Failure(description: "Adler-32 mismatch")
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

    /// Adler-32 straight from RFC 1950, modulo on every byte.
    static func referenceAdler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
