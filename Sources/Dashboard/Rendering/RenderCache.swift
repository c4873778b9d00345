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

    private struct State {
        var slots: [RenderKey: Slot] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// Most bytes kept (bodies plus a per-entry overhead).
    let budget: Int
    private let state = Mutex(State())

    /// A cache holding at most `budget` bytes.
    init(budget: Int = 32 << 20) { self.budget = budget }

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
            guard state.bytes > budget else { return }
            // Evict down to 90% of the budget at once, so a full cache does not sort on every insert.
            let target = budget - budget / 10
            let oldestFirst = state.slots.sorted { $0.value.lastUsed < $1.value.lastUsed }
            for (victim, slot) in oldestFirst where state.bytes > target && victim != key {
                state.slots[victim] = nil
                state.bytes -= slot.cost
            }
        }
    }
}
