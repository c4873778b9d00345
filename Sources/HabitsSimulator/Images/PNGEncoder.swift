import Compression

/// Writes palette PNGs (colour type 3), the image data deflated by the system's zlib.
///
/// An avatar is a disc and two letters in three colours: long runs that deflate shrinks about ten times (a 128×128
/// avatar at 2 bits per pixel is ~4.3 KB in stored blocks, ~0.4 KB deflated), which is most of the People page's
/// first visit (issue 14). Layout per the PNG spec (ISO/IEC 15948): signature, IHDR, PLTE, IDAT, IEND, each chunk
/// with its CRC-32.
public enum PNGEncoder {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One palette entry.
    public struct RGB: Equatable, Sendable {
        /// Red, green, blue, 0…255.
        public var red, green, blue: UInt8
        /// Creates a colour.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Encodes `pixels` (one palette index per pixel, row by row) at `bitDepth` 1, 2, 4 or 8 bits per pixel.
    public static func encode(width: Int, height: Int, bitDepth: Int, palette: [RGB], pixels: [UInt8]) -> [UInt8] {
        precondition([1, 2, 4, 8].contains(bitDepth) && palette.count <= 1 << bitDepth && !palette.isEmpty)
        precondition(pixels.count == width * height && width > 0 && height > 0)
        var png = signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [UInt8(bitDepth), 3, 0, 0, 0]  // colour type 3 (palette), deflate, adaptive filter, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] }, to: &png)
        appendChunk(
            "IDAT", Zlib.compress(scanlines(width: width, height: height, bitDepth: bitDepth, pixels)), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Rows packed most significant bits first, each preceded by filter type 0 (none).
    static func scanlines(width: Int, height: Int, bitDepth: Int, _ pixels: [UInt8]) -> [UInt8] {
        let rowBytes = (width * bitDepth + 7) / 8
        var out = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        for y in 0..<height {
            let rowStart = y * (rowBytes + 1) + 1
            for x in 0..<width {
                let bit = x * bitDepth
                let shift = 8 - bitDepth - bit % 8
                out[rowStart + bit / 8] |= (pixels[y * width + x] & UInt8((1 << bitDepth) - 1)) << shift
            }
        }
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png.appendBigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        png.appendBigEndian(CRC32.checksum(data, continuing: CRC32.checksum(typeBytes)))
    }
}
