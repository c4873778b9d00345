import Compression
import Hashing
import Synchronization

/// A run of rendered bytes that many pages show (issue 46 point 1): a page's shared frame between its personal parts,
/// a card, a habit row. Pages for a crowd of browsers are put together from chunks (`ComposedPage`) instead of being
/// rendered and kept whole per browser, so what is kept grows with the data, not with the browsers.
///
/// A chunk keeps its gzip pieces beside its bytes: one deflated after each chunk it was seen to follow (the previous
/// card is the best dictionary for the next), so a stitched page compresses about as well as one deflate of it.
final class Chunk: Sendable {
    /// What a chunk's content is known by: two FNV-1a lanes over its bytes and their count. Pieces are keyed by the
    /// digest of the chunk they follow, never by object identity: an evicted chunk's address can be reused.
    struct Digest: Hashable, Sendable {
        /// The first lane.
        let first: UInt64
        /// The second lane.
        let second: UInt64
        /// The number of bytes.
        let count: Int
    }

    /// The bytes.
    let bytes: [UInt8]
    /// Their digest.
    let digest: Digest
    /// Pieces by the digest of the chunk they follow; nil for the piece valid anywhere.
    private let pieces = Mutex<[Digest?: GzipPiece]>([:])

    /// The most pieces kept after distinct predecessors; past it, a chunk after yet another one gets the piece valid
    /// anywhere, so an unusual neighbour cannot grow a chunk without bound.
    static let maximumPieces = 8

    /// A chunk of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let lanes = FNV1a.striped(bytes)
        digest = Digest(first: lanes.first, second: lanes.second, count: bytes.count)
    }

    /// The gzip piece of these bytes for a stream in which they come right after `predecessor` (nil: after bytes
    /// that are not a chunk, or at the start), deflated on first use. Past `maximumPieces` predecessors, the piece
    /// valid anywhere, itself deflated once.
    func piece(after predecessor: Chunk?) -> GzipPiece {
        let wanted = predecessor?.digest
        let (held, key) = pieces.withLock { pieces -> (GzipPiece?, Digest?) in
            let key = pieces[wanted] != nil || pieces.count < Self.maximumPieces ? wanted : nil
            return (pieces[key], key)
        }
        if let held { return held }
        let piece = GzipPiece(bytes, after: key == nil ? nil : predecessor?.bytes)
        pieces.withLock { pieces in
            if pieces[key] == nil, key == nil || pieces.count < Self.maximumPieces { pieces[key] = piece }
        }
        return piece
    }

    /// What the chunk costs a cache: its bytes and, about, a few of its pieces.
    var cost: Int { bytes.count * 2 + 256 }
}
