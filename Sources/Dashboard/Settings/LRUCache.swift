/// A count-bounded map that forgets its least recently used entry when full. Not thread-safe: owners wrap it in a
/// `Mutex`. Every operation is O(1): a dictionary finds the slot, and the slots form a doubly linked list by index
/// (no per-entry allocation beyond the dictionary's, so a full table of small values stays small).
struct LRUCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        /// The next more recently used slot, or -1.
        var newer: Int
        /// The next less recently used slot, or -1.
        var older: Int
    }

    /// The most entries kept.
    let capacity: Int
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// An empty cache holding at most `capacity` (at least 1) entries.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
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

    /// Stores `value` as the most recently used; returns the entry pushed out to make room, if any.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> (key: Key, value: Value)? {
        if let slot = index[key] {
            slots[slot].value = value
            moveToNewest(slot)
            return nil
        }
        var evicted: (key: Key, value: Value)?
        if index.count >= capacity { evicted = removeOldest() }
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = Slot(key: key, value: value, newer: -1, older: -1)
        } else {
            slot = slots.count
            slots.append(Slot(key: key, value: value, newer: -1, older: -1))
        }
        index[key] = slot
        linkAsNewest(slot)
        return evicted
    }

    /// Removes `key`'s entry; returns its value.
    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        unlink(slot)
        freeSlots.append(slot)
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
