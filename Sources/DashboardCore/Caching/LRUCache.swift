/// A count- and byte-bounded map that forgets its least recently used entries when full (a byte budget counts the
/// cost each `set` names, issue 23: every cache has one). Not thread-safe: owners wrap it in a
/// `Mutex`. Every operation is O(1): a dictionary finds the slot, and the slots form a doubly linked list by index
/// (no per-entry allocation beyond the dictionary's, so a full table of small values stays small).
///
/// Public and `@inlinable` for the web's caches (render, cards, digests, cookies): on their warm path it is
/// specialised where it is used, as it was when both sides were one module (issue 45).
public struct LRUCache<Key: Hashable, Value> {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        /// What the entry counts against `budgetBytes`.
        @usableFromInline var cost: Int
        /// The next more recently used slot, or -1.
        @usableFromInline var newer: Int
        /// The next less recently used slot, or -1.
        @usableFromInline var older: Int

        @inlinable
        init(key: Key, value: Value, cost: Int, newer: Int, older: Int) {
            (self.key, self.value, self.cost, self.newer, self.older) = (key, value, cost, newer, older)
        }
    }

    /// The most entries kept.
    public let capacity: Int
    /// The most bytes (the sum of the entries' costs) kept.
    public let budgetBytes: Int
    /// The sum of the entries' costs.
    @inlinable public var bytes: Int { storedBytes }
    /// `bytes`, set by the cache alone.
    @usableFromInline var storedBytes = 0
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var index: [Key: Int] = [:]
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    /// An empty cache holding at most `capacity` (at least 1) entries costing at most `budgetBytes` in all.
    @inlinable
    public init(capacity: Int, budgetBytes: Int = .max) {
        self.capacity = max(1, capacity)
        self.budgetBytes = budgetBytes
    }

    /// The number of entries.
    @inlinable public var count: Int { index.count }

    /// The value for `key`, marking it most recently used.
    @inlinable
    public mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return slots[slot].value
    }

    /// The value for `key` without changing its place.
    @inlinable
    public func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0].value }
    }

    /// Stores `value` as the most recently used, costing `cost` bytes (nil: what it cost before, or 0); returns the
    /// last entry pushed out to make room, if any. An entry over the whole budget is not kept.
    @inlinable @discardableResult
    public mutating func set(_ value: Value, for key: Key, cost: Int? = nil) -> (key: Key, value: Value)? {
        if let slot = index[key] {
            let cost = cost ?? slots[slot].cost
            storedBytes += cost - slots[slot].cost
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
        storedBytes += cost
        linkAsNewest(slot)
        return makeRoom(keeping: key) ?? evicted
    }

    /// Drops the least recently used entries (never `key`) until the costs fit the budget.
    @inlinable
    mutating func makeRoom(keeping key: Key) -> (key: Key, value: Value)? {
        var evicted: (key: Key, value: Value)?
        while bytes > budgetBytes, let entry = oldestEntry, entry.key != key { evicted = removeOldest() }
        return evicted
    }

    /// Removes `key`'s entry; returns its value.
    @inlinable @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        unlink(slot)
        freeSlots.append(slot)
        storedBytes -= slots[slot].cost
        return slots[slot].value
    }

    /// The least recently used entry, without changing anything.
    @inlinable public var oldestEntry: (key: Key, value: Value)? {
        oldest < 0 ? nil : (slots[oldest].key, slots[oldest].value)
    }

    /// Removes and returns the least recently used entry.
    @inlinable @discardableResult
    public mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let entry = oldestEntry else { return nil }
        removeValue(for: entry.key)
        return entry
    }

    // MARK: - The list

    @inlinable
    mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    @inlinable
    mutating func linkAsNewest(_ slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }
}
