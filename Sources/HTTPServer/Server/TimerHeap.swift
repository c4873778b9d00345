import Timing

/// The deadlines of one event loop's connections, earliest first (a binary min-heap).
///
/// Entries are never removed early: a connection arms a new entry only when its deadline moves earlier, and
/// an entry that no longer matches the connection's armed deadline is dropped when it comes due. Under
/// keep-alive load a connection's deadline moves later with every request and earlier almost never, so
/// the heap holds about one entry per connection and a request costs no heap operation at all.
struct TimerHeap {
    /// One armed deadline of the connection in `slot` (with `generation`, so a reused slot is not confused).
    struct Entry {
        var deadline: MonotonicInstant
        var slot: Int
        var generation: UInt32
    }

    private var entries: [Entry] = []

    /// Whether no deadline is armed.
    var isEmpty: Bool { entries.isEmpty }

    /// The number of entries, stale ones included.
    var count: Int { entries.count }

    /// The earliest deadline, if any.
    var earliest: MonotonicInstant? { entries.first?.deadline }

    /// Adds an entry.
    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: MonotonicInstant) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            let right = left + 1
            let smaller = right < entries.count && entries[right].deadline < entries[left].deadline ? right : left
            guard entries[smaller].deadline < entries[parent].deadline else { break }
            entries.swapAt(smaller, parent)
            parent = smaller
        }
        return first
    }
}
