import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 49 point 4: a change made through another dashboard to a browser held here calls the store's hook (the app
/// wakes its parked polls with it) and drops the copy, so any balancer can send a browser's toggle and its
/// open page's poll to different dashboards.
extension PostgresSettingsStoreTests {
    @Test(.timeLimit(.minutes(2)))
    func aChangeMadeElsewhereToABrowserHeldHereCallsTheHookAndDropsTheCopy() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let (one, two) = (try await Self.dashboard(url), try await Self.dashboard(url))
        defer {
            one.close()
            two.close()
        }
        let calls = Atomic<Int>(0)
        two.store.onChangeElsewhere { calls.add(1, ordering: .relaxed) }
        await Self.listening(one)
        await Self.listening(two)
        // The listener's connection calls the hook too (every copy dropped), just after it says it listens: counted
        // from here, that call cannot pass for the change made elsewhere (it did, once in four runs under load).
        await eventually("two's connection called the hook") { calls.load(ordering: .relaxed) >= 1 }
        calls.store(0, ordering: .relaxed)
        let id = BrowserID.random()
        try await one.store.update(id) { $0.toggleFavorite("Yoga") }
        #expect(try await two.store.loadVersioned(id).value.favoriteHabits == ["Yoga"])  // two holds version 1
        // Made here: its own notification drops nothing once the new copy is stored, but may be heard just before it
        // is and drop version 1 (the hook then wakes this browser's polls once more than needed, which is harmless).
        try await two.store.update(id) { $0.toggleFavorite("Run") }
        try await one.store.update(id) { $0.toggleFavorite("Swim") }  // made elsewhere: version 3 drops two's 2
        await eventually("two heard the change made elsewhere") {
            calls.load(ordering: .relaxed) >= 1 && two.store.loadedAtOnce(id)?.version != 2
        }
        #expect((1...2).contains(calls.load(ordering: .relaxed)))
        #expect(try await two.store.loadVersioned(id).value.favoriteHabits == ["Yoga", "Run", "Swim"])
    }
}
