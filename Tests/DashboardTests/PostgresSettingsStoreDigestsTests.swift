import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 4: notifications name a browser by a keyed digest, which the store maps back to the ids it holds.
@Suite struct PostgresSettingsStoreDigestsTests {
    typealias State = PostgresSettingsStore<Settings>.State

    @Test func everyBegunIdIsFoundByItsDigestAndPastTheLimitEveryCopyIsDropped() {
        var state = State(cache: LRUCache(capacity: 8))
        let (first, second, third) = (BrowserID.random(), BrowserID.random(), BrowserID.random())
        let defaults = Versioned(value: Settings(), version: 1, digest: SettingsDigest.of([]))
        let entry = PostgresSettingsStore<Settings>.Entry(loaded: defaults, usage: FileUsage(modified: 0, accessed: 1))
        #expect(state.begin(first, digest: "d1", limit: 2).flushed == false)
        _ = state.cache.set(entry, for: first)
        #expect(state.begin(second, digest: "d2", limit: 2).flushed == false)
        // Again for an id already named: nothing to add.
        #expect(state.begin(first, digest: "d1", limit: 2).flushed == false)
        #expect(state.digests == ["d1": first, "d2": second])
        // A third id past the limit: every copy goes (as on a reconnection) and only the new id is named.
        let (ticket, flushed) = state.begin(third, digest: "d3", limit: 2)
        #expect(flushed && state.cache.count == 0 && state.digests == ["d3": third])
        let kept = state.admission.end(ticket, version: 1)
        #expect(kept)
        // No secret yet: nothing is named.
        #expect(state.begin(BrowserID.random(), digest: nil, limit: 2).flushed == false)
        #expect(state.digests.count == 1)
    }
}
