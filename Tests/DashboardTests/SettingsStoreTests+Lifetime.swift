import Foundation
import Glibc
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Expiry and eviction (issue 8), with a manual clock: the store stamps every write and read with its clock.
extension SettingsStoreTests {
    @Test func settingsUnusedLongerThanTheMaxAgeExpireInASweep() async throws {
        let clock = ManualClock()
        let store = try makeStore(clock: clock)
        let (forgotten, visited) = (BrowserID.random(), BrowserID.random())
        try await store.update(forgotten) { $0.favoriteHabits = ["A"] }
        try await store.update(visited) { $0.favoriteHabits = ["B"] }
        clock.advance(days: 300)
        #expect(try await store.load(visited).favoriteHabits == ["B"])
        clock.advance(days: 101)

        let report = try store.sweep()

        #expect(report == SweepReport(kept: 1, expired: 1, evicted: 0, leftovers: 0))
        #expect(try files() == ["\(visited).json"])
        #expect(await store.fileCount() == 1)
        #expect(try await store.load(forgotten) == Prefs())
    }

    @Test func theSweepAtStartExpiresToo() async throws {
        let clock = ManualClock()
        try await makeStore(clock: clock).update(BrowserID.random()) { $0.favoriteHabits = ["A"] }
        clock.advance(days: 401)
        let store = try makeStore(clock: clock)
        #expect(try files().isEmpty)
        #expect(await store.fileCount() == 0)
    }

    /// At the cap: the browser that never came back after its first write goes first, then the least recently used.
    @Test func evictionDropsWrittenOnceNeverReadFirstThenLeastRecentlyUsed() async throws {
        let clock = ManualClock()
        let store = try makeStore(maxFiles: 3, clock: clock)
        func step() { clock.advance(by: .seconds(60)) }
        let (old, minted, recent) = (BrowserID.random(), BrowserID.random(), BrowserID.random())
        try await store.update(old) { $0.favoriteHabits = ["old"] }
        step()
        _ = try await store.load(old)
        step()
        try await store.update(minted) { $0.favoriteHabits = ["minted"] }
        step()
        try await store.update(recent) { $0.favoriteHabits = ["recent"] }
        step()
        _ = try await store.load(recent)
        step()

        let newcomer = BrowserID.random()
        try await store.update(newcomer) { $0.favoriteHabits = ["new"] }
        #expect(Set(try files()) == Set([old, recent, newcomer].map { "\($0).json" }), "the minted file goes first")
        step()

        // The newcomer never came back either, so it is next, though `old` has been idle far longer.
        let another = BrowserID.random()
        try await store.update(another) { $0.favoriteHabits = ["another"] }
        #expect(Set(try files()) == Set([old, recent, another].map { "\($0).json" }))
        step()
        _ = try await store.load(another)
        step()

        // Nothing pristine is left: plain least recently used.
        let last = BrowserID.random()
        try await store.update(last) { $0.favoriteHabits = ["last"] }
        #expect(Set(try files()) == Set([recent, another, last].map { "\($0).json" }))
        #expect(await store.fileCount() == 3)
    }

    /// A second write (a browser toggling twice without a page load in between) is not a minted file.
    @Test func aRewrittenFileOutlivesAMintedOne() async throws {
        let clock = ManualClock()
        let store = try makeStore(maxFiles: 2, clock: clock)
        let (twice, once) = (BrowserID.random(), BrowserID.random())
        try await store.update(twice) { $0.favoriteHabits = ["A"] }
        clock.advance(by: .seconds(1))
        try await store.update(twice) { $0.favoriteHabits.append("B") }
        clock.advance(by: .seconds(1))
        try await store.update(once) { $0.favoriteHabits = ["C"] }
        clock.advance(by: .seconds(1))
        try await store.update(BrowserID.random()) { $0.favoriteHabits = ["D"] }
        #expect(try files().contains("\(twice).json"))
        #expect(!(try files().contains("\(once).json")))
    }

    @Test func theVersionGrowsWithEveryWriteAndTheDigestFollowsTheContent() async throws {
        let clock = ManualClock()
        let store = try makeStore(clock: clock)
        let id = BrowserID.random()
        #expect(try await store.loadVersioned(id).version == 0)
        let first = try await store.update(id) { $0.favoriteHabits = ["A"] }
        // The clock stands still, and the version still grows.
        let second = try await store.update(id) { $0.favoriteHabits = ["A", "B"] }
        let third = try await store.update(id) { $0.favoriteHabits = ["A"] }
        #expect(first.version < second.version && second.version < third.version)
        #expect(first.digest == third.digest && first.digest != second.digest)
        let loaded = try await makeStore(clock: clock).loadVersioned(id)
        #expect(loaded == third, "another store (or process) reads the same version and digest from the file")
        #expect(store.defaults.digest == (try await store.loadVersioned(BrowserID.random())).digest)
    }

    /// With a cap of 1 000 and more, the store evicts a batch in the background once it is within half a batch of
    /// the cap, so new browsers normally never wait for a directory scan.
    @Test func nearTheCapABatchIsEvictedInTheBackground() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for _ in 0..<994 {
            try Data(#"{"favoriteHabits":[]}"#.utf8).write(
                to: directory.appendingPathComponent("\(BrowserID.random()).json"))
        }
        let clock = ManualClock()
        clock.advance(by: .seconds(60))
        let store = try makeStore(maxFiles: 1_000, clock: clock)
        #expect(await store.fileCount() == 994)
        let newcomer = BrowserID.random()
        try await store.update(newcomer) { $0.favoriteHabits = ["A"] }

        await store.backgroundEvictionsFinished()
        #expect(await store.fileCount() == 990)
        #expect(try files().count == 990)
        #expect(try files().contains("\(newcomer).json"), "the oldest never-read files went, not the newest")
    }

    @Test func aStoreThatOpensNearTheCapEvictsABatchInTheBackground() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for _ in 0..<1_000 {
            try Data(#"{"favoriteHabits":[]}"#.utf8).write(
                to: directory.appendingPathComponent("\(BrowserID.random()).json"))
        }
        let store = try makeStore(maxFiles: 1_000)
        await store.backgroundEvictionsFinished()
        #expect(await store.fileCount() == 990)
        #expect(try files().count == 990)
    }
}
