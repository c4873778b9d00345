import Testing

@testable import Dashboard

@Suite struct RenderCacheTests {
    func key(_ route: String, version: UInt64 = 1) -> RenderKey {
        RenderKey(route: route, content: version, personal: 0, stale: nil)
    }

    @Test func aKeyIsRenderedOnceAndThenServedFromMemory() {
        let cache = RenderCache()
        var renders = 0
        for _ in 0..<3 {
            let entry = cache.entry(for: key("home")) {
                renders += 1
                return Array("<p>hi</p>".utf8)
            }
            #expect(entry.body == Array("<p>hi</p>".utf8))
            #expect(entry.entityTag == key("home").entityTag)
        }
        #expect(renders == 1)
        #expect(cache.counters.hits == 2 && cache.counters.misses == 1)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheBudget() {
        let cache = RenderCache(budget: 10_000)
        let page = [UInt8](repeating: 65, count: 2_000)
        for index in 0..<4 { _ = cache.entry(for: key("p\(index)")) { page } }
        _ = cache.entry(for: key("p0")) { [] }  // p0 used again: p1 is now the oldest
        _ = cache.entry(for: key("p4")) { page }
        #expect(cache.bytes <= 10_000)
        var rendered: [String] = []
        for index in 0..<5 {
            _ = cache.entry(for: key("p\(index)")) {
                rendered.append("p\(index)")
                return page
            }
        }
        #expect(rendered.first == "p1")
        #expect(!rendered.contains("p0"))
    }

    @Test func anEntryLargerThanTheBudgetIsServedButNotKept() {
        let cache = RenderCache(budget: 100)
        let entry = cache.entry(for: key("big")) { [UInt8](repeating: 1, count: 1_000) }
        #expect(entry.body.count == 1_000)
        #expect(cache.count == 0)
    }

    @Test func everyPartOfTheKeyChangesTheTag() {
        let base = RenderKey(route: "home", content: 1, personal: 2, stale: nil)
        var tags: Set<String> = [base.entityTag]
        tags.insert(RenderKey(route: "habits", content: 1, personal: 2, stale: nil).entityTag)
        tags.insert(RenderKey(route: "home", content: 3, personal: 2, stale: nil).entityTag)
        tags.insert(RenderKey(route: "home", content: 1, personal: 4, stale: nil).entityTag)
        tags.insert(RenderKey(route: "home", content: 1, personal: 2, stale: "10:00:00").entityTag)
        #expect(tags.count == 5)
        #expect(base.entityTag.hasPrefix("\"") && base.entityTag.hasSuffix("\"") && base.entityTag.count == 18)
    }

    /// Order and repeats of favourites do not change any page, so they do not change the key either.
    @Test func settingsDigestIgnoresOrderAndRepeats() {
        #expect(RenderKey.digest(of: ["Yoga", "Run", "Yoga"]) == RenderKey.digest(of: ["Run", "Yoga"]))
        #expect(RenderKey.digest(of: ["Yoga"]) != RenderKey.digest(of: ["Run"]))
        #expect(
            RenderKey.digest(of: Settings(favoriteHabits: ["a"], followedUserIDs: []))
                != RenderKey.digest(of: Settings(favoriteHabits: [], followedUserIDs: ["a"])))
    }
}
