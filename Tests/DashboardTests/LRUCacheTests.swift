import Testing

@testable import Dashboard

@Suite struct LRUCacheTests {
    @Test func theLeastRecentlyUsedEntryGoesWhenFull() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        #expect(cache.value(for: "a") == 1)
        let evicted = cache.set(3, for: "c")
        #expect(evicted?.key == "b")
        #expect(cache.peek("b") == nil)
        #expect(cache.count == 2)
    }

    @Test func peekDoesNotChangeTheOrder() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        _ = cache.peek("a")
        #expect(cache.set(3, for: "c")?.key == "a")
    }

    @Test func removedSlotsAreReusedAndTheListStaysWhole() {
        var cache = LRUCache<Int, Int>(capacity: 3)
        for round in 0..<100 {
            cache.set(round, for: round)
            if round % 3 == 0 { cache.removeValue(for: round) }
        }
        #expect(cache.count == 2, "99 was removed last")
        var order: [Int] = []
        while let oldest = cache.removeOldest() { order.append(oldest.key) }
        #expect(order == [97, 98])
    }
}
