import Synchronization

/// Chunks a skeleton's places are filled with, by an id, made on first use and kept as long as the skeleton (issue 46
/// point 1): Home's leaderboard card for a habit is the same for every browser within a data version and history
/// slot, so a request finds it by the habit's name instead of building the card, its trend and its key; a Following
/// row likewise by its person and the favourite its message names.
///
/// It keeps at most `allowance` bytes of chunks, and says so as its cost up front: the render cache counts a skeleton
/// once, when it is stored, so what the memo keeps later must already be in that count (abuse.sh's large flood grew
/// 74 MiB past its bound while kept chunks went uncounted). Past the allowance a chunk is made and not kept.
final class ChunkMemo<ID: Hashable & Sendable>: SkeletonLayout {
    private struct Kept {
        var chunks: [ID: Chunk] = [:]
        var bytes = 0
    }

    private let kept = Mutex(Kept())
    /// The most bytes of chunks kept.
    let allowance: Int

    /// An empty memo keeping at most `allowance` bytes of chunks.
    init(allowance: Int = 64 << 10) { self.allowance = allowance }

    /// The chunk of `id`, made by `make` unless kept.
    func chunk(_ id: ID, make: () throws -> Chunk) rethrows -> Chunk {
        if let chunk = kept.withLock({ $0.chunks[id] }) { return chunk }
        let chunk = try make()
        kept.withLock { kept in
            guard kept.bytes + chunk.cost <= allowance else { return }
            kept.chunks[id] = chunk
            kept.bytes += chunk.cost
        }
        return chunk
    }

    /// What the memo may cost: its allowance and its table.
    var cost: Int { allowance + 1024 }
}
