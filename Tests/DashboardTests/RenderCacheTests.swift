import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct RenderCacheTests {
    func key(_ route: String, version: UInt64 = 1) -> RenderKey {
        RenderKey(route: route, content: version, personal: .none, stale: nil)
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
            #expect(entry.entityTag == EntityTag.strong(for: Array("<p>hi</p>".utf8)))
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

    @Test func theTagIsTheContentHashSoEqualBytesUnderANewVersionKeepIt() {
        let cache = RenderCache()
        let first = cache.entry(for: key("home", version: 1)) { Array("<p>intro</p>".utf8) }
        let second = cache.entry(for: key("home", version: 2)) { Array("<p>intro</p>".utf8) }
        let third = cache.entry(for: key("home", version: 3)) { Array("<p>changed</p>".utf8) }
        #expect(first.entityTag == second.entityTag)
        #expect(third.entityTag != first.entityTag)
    }

    /// Order and repeats of favourites do not change any page, so they do not change the key either.
    @Test func settingsDigestIgnoresOrderAndRepeats() {
        #expect(SettingsKey(sets: [["Yoga", "Run", "Yoga"]]) == SettingsKey(sets: [["Run", "Yoga"]]))
        #expect(SettingsKey(sets: [["Yoga"]]) != SettingsKey(sets: [["Run"]]))
        #expect(
            PersonalDigests.Digests(Settings(favoriteHabits: ["a"], followedUserIDs: [])).all
                != PersonalDigests.Digests(Settings(favoriteHabits: [], followedUserIDs: ["a"])).all)
    }
}
