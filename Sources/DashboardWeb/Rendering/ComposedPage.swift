import Compression
import Hashing

/// One browser's page put together from shared chunks and a few bytes of its own (issue 46 point 1), as Varnish puts
/// a page together from Edge Side Includes: nothing of it is kept, and making it renders and compresses nothing.
///
/// Its ETag digests the parts' digests in order (a literal's bytes directly), so it costs a pass over a few dozen
/// digests rather than over the page; equal pages get equal tags, and any changed part changes the tag. Its gzip
/// encoding is the parts' pieces stitched together (`GzipStitcher`).
struct ComposedPage: Sendable {
    /// One part of the page.
    enum Part: Sendable {
        /// Bytes many pages share.
        case shared(Chunk)
        /// Bytes of this page only (a count, a tag): stored, not compressed, in the gzip encoding.
        case literal([UInt8])
    }

    /// The parts in order.
    private(set) var parts: [Part] = []
    /// The page's length.
    private(set) var count = 0

    /// An empty page.
    init() { parts.reserveCapacity(64) }

    /// Adds a shared chunk.
    mutating func append(_ chunk: Chunk) {
        parts.append(.shared(chunk))
        count += chunk.bytes.count
    }

    /// Adds every chunk of `chunks`.
    mutating func append(contentsOf chunks: some Sequence<Chunk>) {
        for chunk in chunks { append(chunk) }
    }

    /// Adds every part of `page`.
    mutating func append(contentsOf page: ComposedPage) {
        parts += page.parts
        count += page.count
    }

    /// Adds bytes of this page only.
    mutating func append(literal text: String) {
        let bytes = Array(text.utf8)
        parts.append(.literal(bytes))
        count += bytes.count
    }

    /// The strong ETag of the page's bytes, in `EntityTag`'s form.
    var entityTag: String {
        var first = FNV1a()
        var second = FNV1a(basis: ~FNV1a.offsetBasis)
        for part in parts {
            switch part {
            case .shared(let chunk):
                // A word at a time: the digests are already well mixed, and a byte at a time was most of the tag.
                Self.mix(&first, chunk.digest.first)
                Self.mix(&second, chunk.digest.second ^ UInt64(chunk.digest.count))
            case .literal(let bytes):
                // Marked apart from a chunk's digest, so a literal cannot pass for one.
                first.feed(byte: 0xFF)
                first.feed(bytes)
                second.feed(byte: 0xFF)
                second.feed(bytes)
            }
        }
        return "\"\(String(count, radix: 16))-c\(FNV1a.hex(first.value))\(FNV1a.hex(second.value))\""
    }

    /// Folds `word` into `hasher` (a multiply and a shift: the words are digests already).
    @inline(__always) private static func mix(_ hasher: inout FNV1a, _ word: UInt64) {
        var value = (hasher.value ^ word) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 29
        hasher = FNV1a(basis: value)
    }

    /// The page's bytes.
    var body: [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(count)
        for part in parts {
            switch part {
            case .shared(let chunk): body += chunk.bytes
            case .literal(let bytes): body += bytes
            }
        }
        return body
    }

    /// The page's gzip encoding, stitched from the chunks' pieces.
    var gzipBody: [UInt8] {
        var stitcher = GzipStitcher(reservingCapacity: count / 3)
        var previous: Chunk?
        for part in parts {
            switch part {
            case .shared(let chunk):
                stitcher.append(chunk.piece(after: previous))
                previous = chunk
            case .literal(let bytes):
                stitcher.append(GzipPiece(stored: bytes))
                previous = nil
            }
        }
        return stitcher.finish()
    }
}
