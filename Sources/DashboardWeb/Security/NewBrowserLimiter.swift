import DashboardCore
import Foundation
import Synchronization
import Timing

/// How many new browser ids (settings cookies) one client may be given: a token bucket per client address
/// (issue 8: one client minted 1 131 ids a second and filled the settings cap in 88 s).
///
/// The default, 30 a minute, is far above what people behind one address do (each new browser is one person's
/// first click) and far below what fills the store: at 30 a minute one address needs 55 hours for 100 000 files,
/// and the eviction order drops its never-read files first anyway.
///
/// The table of buckets is bounded (`maxClients`, least recently used forgotten first) and a bucket that has
/// refilled is forgotten early, since it is no different from a new one; so random source addresses cannot grow
/// memory, and the common case keeps the table nearly empty.
public final class NewBrowserLimiter: Sendable {
    /// What the limiter says about one new browser.
    public enum Decision: Equatable, Sendable {
        /// Go ahead.
        case allowed
        /// Refused; a token will be there in this many whole seconds (the `Retry-After` value).
        case limited(retryAfter: Int)
    }

    /// New browser ids per client per minute (also the burst).
    public let perMinute: Int
    /// The most client addresses remembered.
    public let maxClients: Int
    private let clock: any TimeSource
    private let buckets: Mutex<LRUCache<String, TokenBucket>>

    /// Creates a limiter of `perMinute` new browsers per client key.
    public init(
        perMinute: Int = 30, maxClients: Int = 10_000, clock: any TimeSource = SystemTimeSource()
    ) {
        self.perMinute = max(1, perMinute)
        self.maxClients = maxClients
        self.clock = clock
        buckets = Mutex(LRUCache(capacity: maxClients))
    }

    /// Takes one new browser from `client`'s allowance (`ClientAddress.key`).
    public func admit(_ client: String) -> Decision {
        let now = clock.now
        return buckets.withLock { buckets in
            while let oldest = buckets.oldestEntry, oldest.key != client, oldest.value.isFull(at: now) {
                buckets.removeOldest()
            }
            var bucket = buckets.value(for: client) ?? TokenBucket(capacity: perMinute, period: .seconds(60), now: now)
            let wait = bucket.take(at: now)
            buckets.set(bucket, for: client)
            guard let wait else { return .allowed }
            return .limited(retryAfter: max(1, Int((wait / .seconds(1)).rounded(.up))))
        }
    }

    /// The number of clients with a bucket (tests, metrics).
    var trackedClients: Int { buckets.withLock { $0.count } }
}
