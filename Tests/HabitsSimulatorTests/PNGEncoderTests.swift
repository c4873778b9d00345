import Testing

@testable import HabitsSimulator

@Suite struct PNGEncoderTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("6789".utf8), continuing: CRC32.checksum(Array("12345".utf8))) == 0xCBF4_3926)
    }

    @Test func writesSignatureHeaderAndChunksWithValidCRCs() throws {
        let pixels = (0..<15).map { UInt8($0 % 3) }
        let palette = [
            PNGEncoder.RGB(red: 1, green: 2, blue: 3), .init(red: 4, green: 5, blue: 6),
            .init(red: 7, green: 8, blue: 9),
        ]
        let png = PNGEncoder.encode(width: 5, height: 3, bitDepth: 2, palette: palette, pixels: pixels)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try PNGReader.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        for chunk in chunks { #expect(chunk.storedCRC == chunk.computedCRC, "\(chunk.type)") }
        let header = chunks[0].data
        #expect(PNGReader.bigEndian(header, 0) == 5 && PNGReader.bigEndian(header, 4) == 3)
        #expect(Array(header[8...]) == [2, 3, 0, 0, 0])
        #expect(chunks[1].data == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    /// 5 pixels of 2 bits: 0 1 2 0 1 → 0b00_01_10_00, 0b01_00_00_00, each row behind a filter byte of 0.
    @Test func packsPixelsMostSignificantBitsFirstBehindAFilterByte() throws {
        let pixels: [UInt8] = [0, 1, 2, 0, 1, 2, 2, 2, 2, 2]
        let png = PNGEncoder.encode(
            width: 5, height: 2, bitDepth: 2, palette: Array(repeating: .init(red: 0, green: 0, blue: 0), count: 3),
            pixels: pixels)
        let idat = try #require(try PNGReader.chunks(png).first { $0.type == "IDAT" })
        let raw = try PNGReader.inflate(idat.data, expectedSize: 6)
        #expect(raw == [0, 0b0001_1000, 0b0100_0000, 0, 0b1010_1010, 0b1000_0000])
    }

    /// Issue 14: flat images deflate to a small fraction of their pixels (stored blocks sent them whole).
    @Test func deflatesLargeFlatImagesToAFractionOfTheirSize() throws {
        let pixels = [UInt8](repeating: 7, count: 300 * 300)
        let png = PNGEncoder.encode(
            width: 300, height: 300, bitDepth: 8, palette: Array(repeating: .init(red: 9, green: 9, blue: 9), count: 8),
            pixels: pixels)
        let idat = try #require(try PNGReader.chunks(png).first { $0.type == "IDAT" })
        #expect(idat.data.count * 50 < 300 * 301)
        let raw = try PNGReader.inflate(idat.data, expectedSize: 300 * 301)
        #expect(raw.count == 300 * 301)
        #expect(raw.enumerated().allSatisfy { $0.offset % 301 == 0 ? $0.element == 0 : $0.element == 7 })
    }
}
