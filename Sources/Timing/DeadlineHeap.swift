/// Deadlines with what each is for, earliest first (a binary min-heap): the one structure behind many deadlines and
/// one timer (the event loops' connection deadlines, `TimerHeap`; the waiters' of a `WaiterRegistry`).
///
/// Entries are not removed early: an owner whose deadline no longer holds (the connection's moved, the waiter was
/// woken) leaves its entry, skips it when it comes due, and may `compact` the heap when such entries pile up. So
/// arming a deadline is one insertion, and ending a wait early costs nothing here.
public struct DeadlineHeap<Deadline: Comparable & Sendable, Payload: Sendable>: Sendable {
    /// One deadline and what it is for.
    public struct Entry: Sendable {
        /// When it comes due.
        public var deadline: Deadline
        /// What it is for.
        public var payload: Payload

        /// An entry due at `deadline` for `payload`.
        @inlinable public init(deadline: Deadline, payload: Payload) {
            self.deadline = deadline
            self.payload = payload
        }
    }

    @usableFromInline var entries: [Entry] = []

    /// An empty heap.
    @inlinable public init() {}

    /// Whether no deadline is here.
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// The number of entries, stale ones included.
    @inlinable public var count: Int { entries.count }

    /// The earliest deadline, if any.
    @inlinable public var earliest: Deadline? { entries.first?.deadline }

    /// The earliest entry, if any.
    @inlinable public var first: Entry? { entries.first }

    /// Adds `payload` due at `deadline`.
    @inlinable public mutating func insert(_ payload: Payload, at deadline: Deadline) {
        entries.append(Entry(deadline: deadline, payload: payload))
        siftUp(entries.count - 1)
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    @inlinable public mutating func popDue(now: Deadline) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        return popFirst()
    }

    /// Removes and returns the earliest entry, due or not.
    @inlinable public mutating func popFirst() -> Entry? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        siftDown(0)
        return first
    }

    /// Keeps only the entries whose payload `keeps` (the stale ones go), in O(count).
    @inlinable public mutating func compact(keeping keeps: (Payload) -> Bool) {
        entries.removeAll { !keeps($0.payload) }
        // Floyd's heap construction: sift down every parent, last first.
        var parent = entries.count / 2 - 1
        while parent >= 0 {
            siftDown(parent)
            parent -= 1
        }
    }

    @inlinable mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            let right = left + 1
            let smaller = right < entries.count && entries[right].deadline < entries[left].deadline ? right : left
            guard entries[smaller].deadline < entries[parent].deadline else { break }
            entries.swapAt(smaller, parent)
            parent = smaller
        }
    }
}
