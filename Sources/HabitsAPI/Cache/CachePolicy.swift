import Foundation

/// How long the shared cache reuses answers (seconds), and how big it may grow.
public struct CachePolicy: Sendable, Equatable {
    /// Statistics: short, so live pages polling every second stay live while many browsers share one fetch.
    public var liveTTL: TimeInterval = 0.75
    /// Users, habits, categories: they change rarely.
    public var referenceTTL: TimeInterval = 30
    /// Profile images.
    public var imageTTL: TimeInterval = 300
    /// A failure is remembered only this long: enough to stop a stampede on a dead upstream, short enough to
    /// notice recovery at once.
    public var failureTTL: TimeInterval = 0.25
    /// Stale-while-revalidate bound: an expired value younger than this (since the upstream answered with it) is
    /// returned at once while one background refresh runs, so a hanging upstream costs no page load the total
    /// timeout. Older values, and callers with none, wait for the upstream. Zero turns this off.
    public var staleWhileRevalidate: TimeInterval = 30
    /// Largest profile image kept (bytes). A bigger one is not cached and answers as a failed image: the upstream
    /// is untrusted and the client accepts bodies up to 16 MB.
    public var maxImageBytes = 2 << 20
    /// Total bytes of cached image bodies; past it the least recently used images go first.
    public var imageBudgetBytes = 32 << 20
    /// Most entries kept; the least recently used go first. Ids and names in URLs come from browsers.
    public var maxEntries = 1024

    /// The default policy.
    public init() {}

    /// How long a good answer from `endpoint` stays fresh.
    public func ttl(for endpoint: Endpoint) -> TimeInterval {
        switch endpoint.lifetime {
        case .live: liveTTL
        case .reference: referenceTTL
        case .image: imageTTL
        case .write: 0
        }
    }
}
