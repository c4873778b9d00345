import Foundation

/// What the shared cache's bookkeeping needs of an entry whatever its value's type: eviction, invalidation, metrics.
protocol AnyCacheEntry {
    /// The endpoint the entry answers, for invalidating the live ones.
    var endpoint: Endpoint { get }
    /// When a caller last read it (monotonic), for least-recently-used eviction.
    var lastUsed: ContinuousClock.Instant { get }
    /// Bytes of the image body it holds (0 for everything else).
    var imageBytes: Int { get }
    /// Whether a fetch is in flight (such entries are never evicted: callers are waiting on them).
    var isFetching: Bool { get }
    /// Expires the value (kept as the stale fallback) and disowns the fetch in flight.
    mutating func invalidate()
}

/// One request's cached answer, typed by the request's `Response`, with its freshness and the fetch in flight.
struct CacheEntry<Response: Sendable>: AnyCacheEntry {
    /// The endpoint the entry answers.
    let endpoint: Endpoint
    /// The age rules and facts.
    var freshness: Freshness
    /// The last good answer.
    var value: Response?
    /// The last failure, handed to callers with no value while `freshness` says the upstream is failing.
    var error: (any Error)?
    /// The fetch callers join instead of starting their own.
    var inflight: Task<Cached<Response>, any Error>?
    /// When a caller last read it.
    var lastUsed: ContinuousClock.Instant
    /// Bytes of the image body held.
    var imageBytes = 0

    /// An entry with no value yet, read at `now`.
    init(endpoint: Endpoint, policy: Freshness.Policy, now: ContinuousClock.Instant) {
        self.endpoint = endpoint
        self.lastUsed = now
        self.freshness = Freshness(policy: policy)
    }

    var isFetching: Bool { freshness.isFetching }

    mutating func invalidate() {
        freshness.invalidate()
        inflight = nil
    }

    /// The value with its freshness facts, if there is one.
    func cached(isStale: Bool) -> Cached<Response>? {
        value.map { Cached(value: $0, asOf: freshness.fetchedDate, isStale: isStale) }
    }
}
