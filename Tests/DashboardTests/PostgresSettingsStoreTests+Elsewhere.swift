import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 49 point 4: a change made through another dashboard to a browser held here calls the store's hook (the app
/// wakes its parked polls with it), and one made here does not, so any balancer can send a browser's toggle and its
/// open page's poll to different dashboards.
extension PostgresSettingsStoreTests {
    @Test(.timeLimit(.minutes(2)))
    func aChangeMadeElsewhereToABrowserHeldHereCallsTheHookAndOneMadeHereDoesNot() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let (one, two) = (try await Self.dashboard(url), try await Self.dashboard(url))
        defer {
            one.close()
            two.close()
        }
        await Self.listening(one)
        await Self.listening(two)
        let calls = Atomic<Int>(0)
        two.store.onChangeElsewhere { calls.add(1, ordering: .relaxed) }
        let id = BrowserID.random()
        try await one.store.update(id) { $0.toggleFavorite("Yoga") }
        #expect(try await two.store.loadVersioned(id).value.favoriteHabits == ["Yoga"])  // two holds version 1
        try await two.store.update(id) { $0.toggleFavorite("Run") }  // made here: its own notification drops nothing
        try await one.store.update(id) { $0.toggleFavorite("Swim") }  // made elsewhere: version 3 drops two's 2
        await eventually("two heard the change made elsewhere") { calls.load(ordering: .relaxed) >= 1 }
        // Notifications arrive in order: version 2's was handled before version 3's, and called nothing.
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(try await two.store.loadVersioned(id).value.favoriteHabits == ["Yoga", "Run", "Swim"])
    }
}
