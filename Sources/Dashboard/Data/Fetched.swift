import Foundation

/// A value from the Habits API with the time it was fetched and whether it is stale (the upstream failed and this is
/// the last good value). Pages showing stale data add the "data as of HH:MM:SS" notice.
public struct Fetched<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When the upstream answered with it.
    public var fetchedAt: Date
    /// True when a fresh fetch failed and this is the last good value.
    public var isStale: Bool

    /// Creates a fetched value.
    public init(value: Value, fetchedAt: Date, isStale: Bool) {
        self.value = value
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }
}

/// Collects the freshness of everything one page used, so the page shows one notice with the oldest time.
struct Freshness {
    private(set) var oldestStale: Date?

    /// Notes one value's freshness and hands the value back.
    mutating func note<Value>(_ fetched: Fetched<Value>) -> Value {
        if fetched.isStale { oldestStale = min(oldestStale ?? fetched.fetchedAt, fetched.fetchedAt) }
        return fetched.value
    }

    /// The notice to show, if anything was stale.
    var notice: StaleNotice? { oldestStale.map { StaleNotice(dataFetchedAt: $0) } }
}
