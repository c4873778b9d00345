import Foundation
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 18: reads run on the event loops, so a warm read makes no system call; a copy is checked against its file
/// at most once per `recheckInterval`, which bounds how long another process's write takes to show here.
extension SettingsStoreTests {
    @Test func aWarmReadIsAnsweredFromMemoryUntilTheRecheckIntervalEnds() async throws {
        let clock = ManualClock()
        let mine = try makeStore(clock: clock, recheckInterval: .seconds(1))
        let theirs = try makeStore(clock: clock)
        let id = BrowserID.random()
        try await mine.update(id) { $0.favoriteHabits = ["Yoga"] }
        #expect(try await mine.load(id).favoriteHabits == ["Yoga"])
        // Another process writes; within the interval this store does not look at the file at all.
        try await theirs.update(id) { $0.favoriteHabits.append("Swim") }
        clock.advance(by: .seconds(0.9))
        #expect(try await mine.load(id).favoriteHabits == ["Yoga"], "no file-system call within the interval")
        clock.advance(by: .seconds(0.1))
        #expect(try await mine.load(id).favoriteHabits == ["Yoga", "Swim"], "seen once the interval is over")
    }

    @Test func theCopiesCountAChangeFoundInTheFileAndNotARecheckThatFindsTheSameFile() async throws {
        let clock = ManualClock()
        let mine = try makeStore(clock: clock, recheckInterval: .seconds(1))
        let theirs = try makeStore(clock: clock)
        let id = BrowserID.random()
        try await mine.update(id) { $0.favoriteHabits = ["Yoga"] }
        let written = mine.copyChanges
        clock.advance(by: .seconds(1))
        _ = try await mine.load(id)
        #expect(mine.copyChanges == written, "the same file: the copy stands")
        try await theirs.update(id) { $0.favoriteHabits.append("Swim") }
        clock.advance(by: .seconds(1))
        #expect(try await mine.load(id).favoriteHabits == ["Yoga", "Swim"])
        #expect(mine.copyChanges > written)
        let replaced = mine.copyChanges
        try FileManager.default.removeItem(at: directory.appendingPathComponent("\(id).json"))
        clock.advance(by: .seconds(1))
        #expect(try await mine.load(id) == Prefs())
        #expect(mine.copyChanges > replaced, "a copy dropped counts too")
    }

    @Test func aFileRemovedBehindTheCacheIsNoticedAfterTheInterval() async throws {
        let clock = ManualClock()
        let store = try makeStore(clock: clock, recheckInterval: .seconds(1))
        let id = BrowserID.random()
        try await store.update(id) { $0.favoriteHabits = ["Yoga"] }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("\(id).json"))
        #expect(try await store.load(id).favoriteHabits == ["Yoga"])
        clock.advance(by: .seconds(1))
        #expect(try await store.load(id) == Prefs())
    }

    @Test func thisStoresOwnWritesShowAtOnce() async throws {
        let clock = ManualClock()
        let store = try makeStore(clock: clock, recheckInterval: .seconds(3600))
        let id = BrowserID.random()
        try await store.update(id) { $0.favoriteHabits = ["Yoga"] }
        _ = try await store.load(id)
        try await store.update(id) { $0.favoriteHabits = ["Swim"] }
        #expect(try await store.load(id).favoriteHabits == ["Swim"])
    }
}
