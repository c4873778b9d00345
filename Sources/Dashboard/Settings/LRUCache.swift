/// A count- and byte-bounded map that forgets its least recently used entries when full (a byte budget counts the
/// cost each `set` names, issue 23: every cache has one). Not thread-safe: owners wrap it in a
/// `Mutex`. Every operation is O(1): a dictionary finds the slot, and the slots form a doubly linked list by index
/// (no per-entry allocation beyond the dictionary's, so a full table of small values stays small).
struct LRUCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        /// What the entry counts against `budgetBytes`.
        var cost: Int
        /// The next more recently used slot, or -1.
        var newer: Int
        /// The next less recently used slot, or -1.
        var older: Int
    }

    /// The most entries kept.
    let capacity: Int
    /// The most bytes (the sum of the entries' costs) kept.
    let budgetBytes: Int
    /// The sum of the entries' costs.
    private(set) var bytes = 0
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// An empty cache holding at most `capacity` (at least 1) entries costing at most `budgetBytes` in all.
    init(capacity: Int, budgetBytes: Int = .max) {
        self.capacity = max(1, capacity)
        self.budgetBytes = budgetBytes
    }

    /// The number of entries.
    var count: Int { index.count }

    /// The value for `key`, marking it most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return slots[slot].value
    }

    /// The value for `key` without changing its place.
    func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0].value }
    }

    /// Stores `value` as the most recently used, costing `cost` bytes (nil: what it cost before, or 0); returns the
    /// last entry pushed out to make room, if any. An entry over the whole budget is not kept.
    @discardableResult
    mutating func set(_ value: Value, for key: Key, cost: Int? = nil) -> (key: Key, value: Value)? {
        if let slot = index[key] {
            let cost = cost ?? slots[slot].cost
            bytes += cost - slots[slot].cost
            slots[slot].value = value
            slots[slot].cost = cost
            moveToNewest(slot)
            return makeRoom(keeping: key)
        }
        let cost = cost ?? 0
        guard cost <= budgetBytes else { return nil }
        var evicted: (key: Key, value: Value)?
        if index.count >= capacity { evicted = removeOldest() }
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = Slot(key: key, value: value, cost: cost, newer: -1, older: -1)
        } else {
            slot = slots.count
            slots.append(Slot(key: key, value: value, cost: cost, newer: -1, older: -1))
        }
        index[key] = slot
        bytes += cost
        linkAsNewest(slot)
        return makeRoom(keeping: key) ?? evicted
    }

    /// Drops the least recently used entries (never `key`) until the costs fit the budget.
    private mutating func makeRoom(keeping key: Key) -> (key: Key, value: Value)? {
        var evicted: (key: Key, value: Value)?
        while bytes > budgetBytes, let entry = oldestEntry, entry.key != key { evicted = removeOldest() }
        return evicted
    }

    /// Removes `key`'s entry; returns its value.
    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        unlink(slot)
        freeSlots.append(slot)
        bytes -= slots[slot].cost
        return slots[slot].value
    }

    /// The least recently used entry, without changing anything.
    var oldestEntry: (key: Key, value: Value)? {
        oldest < 0 ? nil : (slots[oldest].key, slots[oldest].value)
    }

    /// Removes and returns the least recently used entry.
    @discardableResult
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let entry = oldestEntry else { return nil }
        removeValue(for: entry.key)
        return entry
    }

    // MARK: - The list

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }
}
