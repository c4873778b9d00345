import Testing

@testable import DashboardCore
@testable import DashboardWeb

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

/// The byte budget (issue 23).
extension LRUCacheTests {
    @Test func theLeastRecentlyUsedGoUntilTheCostsFitTheBudget() {
        var cache = LRUCache<String, Int>(capacity: 100, budgetBytes: 100)
        cache.set(1, for: "a", cost: 40)
        cache.set(2, for: "b", cost: 40)
        _ = cache.value(for: "a")
        #expect(cache.set(3, for: "c", cost: 40)?.key == "b")
        #expect(cache.bytes == 80)
        // Growing an entry pushes others out; one over the whole budget is not kept at all.
        cache.set(1, for: "a", cost: 90)
        #expect(cache.peek("c") == nil && cache.bytes == 90)
        #expect(cache.set(9, for: "huge", cost: 101) == nil)
        #expect(cache.peek("huge") == nil)
        cache.removeValue(for: "a")
        #expect(cache.bytes == 0)
    }

    @Test func anUpdateWithoutACostKeepsTheOldOne() {
        var cache = LRUCache<String, Int>(capacity: 10, budgetBytes: 100)
        cache.set(1, for: "a", cost: 30)
        cache.set(2, for: "a")
        #expect(cache.bytes == 30)
    }
}
