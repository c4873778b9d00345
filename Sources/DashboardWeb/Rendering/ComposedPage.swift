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

    /// Adds every part of `page`.
    mutating func append(contentsOf page: ComposedPage) {
        parts += page.parts
        count += page.count
    }

    /// Adds bytes of this page only.
    mutating func append(literal bytes: [UInt8]) {
        parts.append(.literal(bytes))
        count += bytes.count
    }

    /// Adds text of this page only, as UTF-8.
    mutating func append(literal text: String) { append(literal: Array(text.utf8)) }

    /// The strong ETag of the page's bytes, in `EntityTag`'s form: two lanes, each folding in a chunk's digest a word
    /// at a time (the digests are well mixed already; a byte at a time was most of the tag) and a literal's FNV-1a.
    var entityTag: String {
        var first = FNV1a.offsetBasis
        var second = ~FNV1a.offsetBasis
        for part in parts {
            switch part {
            case .shared(let chunk):
                Self.mix(&first, chunk.digest.first)
                Self.mix(&second, chunk.digest.second ^ UInt64(chunk.digest.count))
            case .literal(let bytes):
                // Hashed apart and marked, so a literal cannot pass for a chunk's digest.
                let hash = FNV1a.hash(bytes)
                Self.mix(&first, hash ^ 0xFF)
                Self.mix(&second, ~hash ^ UInt64(bytes.count))
            }
        }
        return "\"\(String(count, radix: 16))-c\(FNV1a.hex(first))\(FNV1a.hex(second))\""
    }

    /// Folds `word` into `lane`: a multiply and a shift.
    @inline(__always) private static func mix(_ lane: inout UInt64, _ word: UInt64) {
        lane = (lane ^ word) &* 0x9E37_79B9_7F4A_7C15
        lane ^= lane >> 29
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
