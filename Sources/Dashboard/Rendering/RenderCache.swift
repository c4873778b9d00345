import Compression
import Synchronization

/// Rendered bytes by `RenderKey`, under a byte budget with least-recently-used eviction (issue 9).
///
/// A page or fragment is rendered once per key (per data version, settings digest and notice) and served from
/// memory until the data changes; parts that are the same for every browser (a habit's ranked list, a person's
/// counts) have a key without settings, so one rendering serves everyone. Keys of older versions are never asked
/// for again and age out. Two requests that miss together may both render; they produce the same bytes.
final class RenderCache: Sendable {
    /// One rendering.
    struct Entry: Sendable {
        /// The bytes.
        var body: [UInt8]
        /// The strong ETag of the bytes.
        var entityTag: String
    }

    private struct Slot {
        var entry: Entry
        var lastUsed: UInt64
        var cost: Int
    }

    /// The gzip bytes of one rendering, keyed by its identity ETag (a content hash: equal renderings under
    /// different keys share one compression).
    private struct Compressed {
        var body: [UInt8]
        var lastUsed: UInt64
    }

    private struct State {
        var slots: [RenderKey: Slot] = [:]
        var compressed: [String: Compressed] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// Most bytes kept (bodies plus a per-entry overhead).
    let budget: Int
    private let state = Mutex(State())

    /// The dashboard's budget (issue 23: under any flood of URLs RSS stays within 64 MB): the built-in data's pages
    /// and fragments for hundreds of browsers' settings, and their gzip copies.
    static let defaultBudget = 4 << 20

    /// A cache holding at most `budget` bytes.
    init(budget: Int = RenderCache.defaultBudget) { self.budget = budget }

    /// Bytes held now.
    var bytes: Int { state.withLock { $0.bytes } }
    /// Entries held now.
    var count: Int { state.withLock { $0.slots.count } }
    /// Lookups answered from the cache, and renderings.
    var counters: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// The entry for `key`, rendering it with `render` on a miss.
    func entry(for key: RenderKey, render: () throws -> [UInt8]) rethrows -> Entry {
        let cached = state.withLock { state -> Entry? in
            guard var slot = state.slots[key] else {
                state.misses += 1
                return nil
            }
            state.clock &+= 1
            slot.lastUsed = state.clock
            state.slots[key] = slot
            state.hits += 1
            return slot.entry
        }
        if let cached { return cached }
        let body = try render()
        let entry = Entry(body: body, entityTag: EntityTag.strong(for: body))
        store(entry, for: key)
        return entry
    }

    /// The gzip encoding of `entry`, compressed on the first request that accepts it and kept with the rendering
    /// (issue 14: a warm compressed page costs no compression per request).
    func gzipped(_ entry: Entry) -> [UInt8] {
        let cached = state.withLock { state -> [UInt8]? in
            guard var slot = state.compressed[entry.entityTag] else { return nil }
            state.clock &+= 1
            slot.lastUsed = state.clock
            state.compressed[entry.entityTag] = slot
            return slot.body
        }
        if let cached { return cached }
        let body = Gzip.compress(entry.body)
        let cost = body.count + entry.entityTag.utf8.count + 128
        guard cost <= budget else { return body }
        state.withLock { state in
            state.clock &+= 1
            if let old = state.compressed.updateValue(
                Compressed(body: body, lastUsed: state.clock), forKey: entry.entityTag)
            {
                state.bytes -= old.body.count + entry.entityTag.utf8.count + 128
            }
            state.bytes += cost
            evictIfOverBudget(&state, keeping: nil)
        }
        return body
    }

    private func store(_ entry: Entry, for key: RenderKey) {
        // The key's strings and the dictionary slot cost something too; count them so tiny entries cannot grow
        // the table without bound.
        let cost = entry.body.count + key.route.utf8.count + 128
        guard cost <= budget else { return }
        state.withLock { state in
            state.clock &+= 1
            if let old = state.slots.updateValue(Slot(entry: entry, lastUsed: state.clock, cost: cost), forKey: key) {
                state.bytes -= old.cost
            }
            state.bytes += cost
            evictIfOverBudget(&state, keeping: key)
        }
    }

    /// Evicts renderings and compressions, least recently used first, down to 90% of the budget at once, so a full
    /// cache does not sort on every insert.
    private func evictIfOverBudget(_ state: inout State, keeping key: RenderKey?) {
        guard state.bytes > budget else { return }
        let target = budget - budget / 10
        enum Victim {
            case rendering(RenderKey, cost: Int)
            case compression(String, cost: Int)
        }
        var candidates: [(lastUsed: UInt64, victim: Victim)] = []
        for (slotKey, slot) in state.slots where slotKey != key {
            candidates.append((slot.lastUsed, .rendering(slotKey, cost: slot.cost)))
        }
        for (tag, compressed) in state.compressed {
            candidates.append(
                (compressed.lastUsed, .compression(tag, cost: compressed.body.count + tag.utf8.count + 128)))
        }
        candidates.sort { $0.lastUsed < $1.lastUsed }
        for candidate in candidates where state.bytes > target {
            switch candidate.victim {
            case .rendering(let victim, let cost):
                state.slots[victim] = nil
                state.bytes -= cost
            case .compression(let tag, let cost):
                state.compressed[tag] = nil
                state.bytes -= cost
            }
        }
    }
}
