import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Several stores on one directory behave like several dashboard processes sharing it (issue 11): each has its own
/// queue, cache and lock descriptors, so only the files and `flock` connect them.
extension SettingsStoreTests {
    /// Without the cross-process lock each store's queue would serialise only its own toggles, and two
    /// read-modify-writes interleaving across the stores would drop one habit.
    @Test func twoStoresTogglingOneBrowserLoseNothing() async throws {
        let (first, second) = (try makeStore(), try makeStore())
        let id = BrowserID.random()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.update(id) { $0.favoriteHabits.append("habit\(index)") } }
            }
            try await group.waitForAll()
        }
        let saved = try await makeStore().load(id).favoriteHabits
        #expect(saved.count == 40)
        #expect(Set(saved) == Set((0..<40).map { "habit\($0)" }))
    }

    @Test func aStoreSeesAnotherStoresWriteAtOnce() async throws {
        let (mine, theirs) = (try makeStore(), try makeStore())
        let id = BrowserID.random()
        try await mine.update(id) { $0.favoriteHabits = ["Yoga"] }
        let cached = try await mine.loadVersioned(id)
        try await theirs.update(id) { $0.favoriteHabits.append("Swim") }
        let seen = try await mine.loadVersioned(id)
        #expect(seen.value.favoriteHabits == ["Yoga", "Swim"])
        #expect(seen.version > cached.version)
        // And the other way round, through a cache that holds the file already.
        _ = try await theirs.load(id)
        try await mine.update(id) { $0.favoriteHabits.removeAll { $0 == "Yoga" } }
        #expect(try await theirs.load(id).favoriteHabits == ["Swim"])
    }

    @Test func aFileReplacedBehindTheCachesBackIsReloaded() async throws {
        let store = try makeStore()
        let id = BrowserID.random()
        try await store.update(id) { $0.favoriteHabits = ["AAAA"] }
        #expect(try await store.load(id).favoriteHabits == ["AAAA"])
        // Same size, written by hand (as a restore from backup would): a new inode, so the cache cannot trust itself.
        try Data(#"{"favoriteHabits":["BBBB"]}"#.utf8).write(to: directory.appendingPathComponent("\(id).json"))
        #expect(try await store.load(id).favoriteHabits == ["BBBB"])
    }

    @Test func aFileDeletedByAnotherStoreReadsAsDefaults() async throws {
        let clock = ManualClock()
        let (mine, theirs) = (try makeStore(clock: clock), try makeStore(clock: clock))
        let id = BrowserID.random()
        try await mine.update(id) { $0.favoriteHabits = ["Yoga"] }
        #expect(try await mine.load(id).favoriteHabits == ["Yoga"])
        clock.advance(days: 401)
        #expect(try theirs.sweep().expired == 1)
        #expect(try await mine.load(id) == Prefs())
    }

    /// Issue 8: page loads waited behind fsync'd writes on one queue. A writer stuck inside its write (holding the
    /// queue and the browser's lock) must not delay a read of that browser, of a cached one or of an uncached one.
    @Test func readsDoNotWaitBehindASlowWrite() async throws {
        let release = DispatchSemaphore(value: 0)
        let armed = Mutex(false)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let store = try makeStore(beforeWrite: {
            guard armed.withLock({ $0 }) else { return }
            enteredContinuation.yield()
            // A hang guard only: the test releases the writer as soon as its reads are done.
            _ = release.wait(timeout: .now() + 60)
        })
        let (cached, slow) = (BrowserID.random(), BrowserID.random())
        try await store.update(cached) { $0.favoriteHabits = ["cached"] }
        try await store.update(slow) { $0.favoriteHabits = ["before"] }
        let uncached = BrowserID.random()
        try await makeStore().update(uncached) { $0.favoriteHabits = ["uncached"] }
        armed.withLock { $0 = true }

        let writer = Task { try await store.update(slow) { $0.favoriteHabits = ["after"] } }
        for await _ in entered { break }
        let started = ContinuousClock.now
        #expect(try await store.load(cached).favoriteHabits == ["cached"])
        #expect(try await store.load(uncached).favoriteHabits == ["uncached"])
        #expect(try await store.load(slow).favoriteHabits == ["before"])
        let waited = ContinuousClock.now - started
        release.signal()
        _ = try await writer.value

        #expect(waited < .seconds(30), "the reads waited for the writer's release")
        #expect(try await store.load(slow).favoriteHabits == ["after"])
    }
}
