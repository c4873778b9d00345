import Foundation
import HabitsAPI

/// Collects the freshness of everything one page used, so the page shows one notice with the oldest time.
struct Freshness {
    private(set) var oldestStale: Date?

    /// Notes one value's freshness and hands the value back.
    mutating func note<Value>(_ cached: Cached<Value>) -> Value {
        if cached.isStale { oldestStale = min(oldestStale ?? cached.asOf, cached.asOf) }
        return cached.value
    }

    /// The notice to show, if anything was stale.
    var notice: StaleNotice? { oldestStale.map { StaleNotice(dataFetchedAt: $0) } }
}
