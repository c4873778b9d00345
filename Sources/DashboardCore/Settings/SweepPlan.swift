/// What a sweep of the settings directory deletes, decided from the files' usage alone (no I/O, no clock).
///
/// Expired files go first: unused (neither read nor written) for longer than the maximum age. Then, while more files
/// remain than may be kept, the eviction order of `FileUsage.evictsBefore`: files written once and never read again
/// (what a minting script leaves) before anything a browser came back to, each class least recently used first.
struct SweepPlan: Equatable {
    /// One settings file as the scan saw it.
    struct Entry: Equatable {
        /// Whose file.
        var id: BrowserID
        /// Its timestamps at the scan.
        var usage: FileUsage
    }

    /// Files unused for longer than the maximum age.
    var expired: [Entry]
    /// Files removed to bring the count down to what may be kept.
    var evicted: [Entry]

    /// Plans a sweep of `entries` at `now`: expire what was last used before `now - maxAge`, then evict until at most
    /// `keep` files remain. Times are nanoseconds since 1970.
    init(entries: [Entry], now: Int64, maxAge: Int64, keep: Int) {
        let oldestKept = now - maxAge
        var remaining: [Entry] = []
        expired = []
        for entry in entries {
            if entry.usage.lastUsed < oldestKept {
                expired.append(entry)
            } else {
                remaining.append(entry)
            }
        }
        let excess = remaining.count - max(0, keep)
        guard excess > 0 else {
            evicted = []
            return
        }
        // Ties (same usage, e.g. a manual clock) fall back to the id, so the plan is the same on every run.
        remaining.sort {
            if FileUsage.evictsBefore($0.usage, $1.usage) { return true }
            if FileUsage.evictsBefore($1.usage, $0.usage) { return false }
            return $0.id.rawValue < $1.id.rawValue
        }
        evicted = Array(remaining.prefix(excess))
    }
}
