import Foundation
import Timing

/// How long the shared cache reuses answers, and how big it may grow. Ages are measured on the monotonic clock
/// (`TimeSource.now`), so setting the wall clock neither keeps entries nor expires them.
public struct CachePolicy: Sendable, Equatable {
    /// Statistics: short, so live pages polling every second stay live while many browsers share one fetch.
    public var liveTTL: Duration = .milliseconds(750)
    /// Users, habits, categories: they change rarely.
    public var referenceTTL: Duration = .seconds(30)
    /// Profile images.
    public var imageTTL: Duration = .seconds(300)
    /// A failure is remembered only this long: enough to stop a stampede on a dead upstream, short enough to
    /// notice recovery at once.
    public var failureTTL: Duration = .milliseconds(250)
    /// Stale-while-revalidate bound: an expired value younger than this (since the upstream answered with it) is
    /// returned at once while one background refresh runs, so a hanging upstream costs no page load the total
    /// timeout. Older values, and callers with none, wait for the upstream. Zero turns this off.
    public var staleWhileRevalidate: Duration = .seconds(30)
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
    public func ttl(for endpoint: Endpoint) -> Duration {
        switch endpoint.lifetime {
        case .live: liveTTL
        case .reference: referenceTTL
        case .image: imageTTL
        case .write: .zero
        }
    }
}
