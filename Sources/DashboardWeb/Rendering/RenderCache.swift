import Compression
import DashboardCore
import Synchronization

/// Rendered bytes by `RenderKey`, under a byte budget with least-recently-used eviction (issue 9), on the one bounded
/// cache type (`LRUCache`).
///
/// A page or fragment is rendered once per key (per data version, settings digest and notice) and served from
/// memory until the data changes; parts that are the same for every browser (a habit's ranked list, a person's
/// counts) have a key without settings, so one rendering serves everyone. Keys of older versions are never asked
/// for again and age out. Two requests that miss together may both render; they produce the same bytes.
final class RenderCache: Sendable {
    /// What the one LRU holds: renderings by key, and the gzip bytes of a rendering by its identity ETag (a content
    /// hash: equal renderings under different keys share one compression). Both share the budget and the order.
    private enum Slot: Hashable {
        case rendering(RenderKey)
        case gzip(entityTag: String)
        case skeleton(RenderKey)
    }

    private enum Stored {
        case rendering(Entry)
        case gzip([UInt8])
        case skeleton(Skeleton)
    }

    private struct State {
        var lru: LRUCache<Slot, Stored>
        var hits = 0
        var misses = 0
    }

    /// Most bytes kept (bodies plus a per-entry overhead).
    let budget: Int
    private let state: Mutex<State>

    /// The dashboard's budget (issue 23: under any flood of URLs RSS stays within 64 MB): the built-in data's pages
    /// and fragments for hundreds of browsers' settings, and their gzip copies.
    static let defaultBudget = 4 << 20

    /// What an entry counts beyond its bytes: the key's strings and the table's slot, so tiny entries cannot grow the
    /// table without bound.
    private static let overhead = 128

    /// A cache holding at most `budget` bytes.
    init(budget: Int = RenderCache.defaultBudget) {
        self.budget = budget
        state = Mutex(State(lru: LRUCache(capacity: .max, budgetBytes: budget)))
    }

    /// Bytes held now.
    var bytes: Int { state.withLock { $0.lru.bytes } }
    /// Entries held now (renderings and gzip copies).
    var count: Int { state.withLock { $0.lru.count } }
    /// Lookups answered from the cache, and renderings.
    var counters: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// The entry for `key`, rendering it with `render` on a miss.
    func entry(for key: RenderKey, render: () throws -> [UInt8]) rethrows -> Entry {
        try held(
            .rendering(key), key: key,
            as: {
                guard case .rendering(let entry) = $0 else { return nil }
                return entry
            },
            make: {
                let body = try render()
                let entry = Entry(body: body, entityTag: EntityTag.strong(for: body))
                return (entry, .rendering(entry), body.count)
            })
    }

    /// The skeleton of `key` (a page composed per browser, issue 46 point 1), made by `make` on a miss. Its key
    /// carries no settings: one skeleton serves every browser.
    func skeleton(for key: RenderKey, make: () throws -> Skeleton) rethrows -> Skeleton {
        try held(
            .skeleton(key), key: key,
            as: {
                guard case .skeleton(let skeleton) = $0 else { return nil }
                return skeleton
            },
            make: {
                let skeleton = try make()
                return (skeleton, .skeleton(skeleton), skeleton.cost)
            })
    }

    /// What `slot` holds as a `Value`, counted as a hit; on a miss, counted, what `make` gives (the value, how it is
    /// stored, its bytes), stored.
    private func held<Value>(
        _ slot: Slot, key: RenderKey, as value: (Stored) -> Value?, make: () throws -> (Value, Stored, Int)
    ) rethrows -> Value {
        let cached = state.withLock { state -> Value? in
            guard let stored = state.lru.value(for: slot), let cached = value(stored) else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return cached
        }
        if let cached { return cached }
        let (made, stored, bytes) = try make()
        let cost = bytes + key.route.utf8.count + Self.overhead
        state.withLock { _ = $0.lru.set(stored, for: slot, cost: cost) }
        return made
    }

    /// The gzip encoding of `entry`, compressed on the first request that accepts it and kept with the rendering
    /// (issue 14: a warm compressed page costs no compression per request).
    func gzipped(_ entry: Entry) -> [UInt8] {
        let slot = Slot.gzip(entityTag: entry.entityTag)
        if case .gzip(let body) = state.withLock({ $0.lru.value(for: slot) }) { return body }
        let body = Gzip.compress(entry.body)
        let cost = body.count + entry.entityTag.utf8.count + Self.overhead
        state.withLock { _ = $0.lru.set(.gzip(body), for: slot, cost: cost) }
        return body
    }
}
