import Synchronization

/// Chunks a skeleton's places are filled with, by an id, made on first use and kept as long as the skeleton (issue 46
/// point 1): Home's leaderboard card for a habit is the same for every browser within a data version and history
/// slot, so a request finds it by the habit's name instead of building the card, its trend and its key.
final class ChunkMemo: SkeletonLayout {
    private let chunks = Mutex<[String: Chunk]>([:])

    /// An empty memo.
    init() {}

    /// The chunk of `id`, made by `make` on first use.
    func chunk(_ id: String, make: () throws -> Chunk) rethrows -> Chunk {
        if let chunk = chunks.withLock({ $0[id] }) { return chunk }
        let chunk = try make()
        chunks.withLock { $0[id] = chunk }
        return chunk
    }

    /// What the memo costs a cache, about: its table (the chunks live in the card cache too).
    var cost: Int { chunks.withLock { $0.count } * 64 }
}
