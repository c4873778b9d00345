import Foundation
import Logging
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

@Suite final class SettingsStoreTests {
    struct Prefs: Codable, Equatable, Sendable {
        var favoriteHabits: [String] = []
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("settings-store-tests-\(UUID().uuidString)")
    }

    /// Every test gets its own directory; remove it so runs leave nothing behind.
    deinit {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // A test that never created the directory has nothing to remove; anything else is left in /tmp.
        }
    }

    /// A store on the test's directory. `recheckInterval` is zero unless a test is about it: the tests of sharing
    /// then see every check (`SettingsStoreTests+Recheck.swift` proves the interval).
    func makeStore(
        maxFiles: Int = 100, logger: Logger = .silent, clock: ManualClock? = nil,
        recheckInterval: Duration = .zero, beforeWrite: (@Sendable () -> Void)? = nil
    ) throws -> SettingsStore<Prefs> {
        try SettingsStore(
            directory: directory, maxFiles: maxFiles, maxAge: 400 * 86_400, cacheCapacity: 100, defaultValue: Prefs(),
            logger: logger, clock: clock ?? SystemTimeSource(), recheckInterval: recheckInterval,
            beforeWrite: beforeWrite)
    }

    /// The directory's entries, without the store's own dot-files (`.locks/`).
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func missingFileLoadsDefaultsAndWritesNothing() async throws {
        let store = try makeStore()
        #expect(try await store.load(BrowserID.random()) == Prefs())
        #expect(try files().isEmpty)
    }

    @Test func updateIsSavedAsJSONAndReadBackByANewStore() async throws {
        let id = BrowserID.random()
        try await makeStore().update(id) { $0.favoriteHabits.append("Yoga") }
        let text = try String(contentsOf: directory.appendingPathComponent("\(id).json"), encoding: .utf8)
        #expect(text == #"{"favoriteHabits":["Yoga"]}"#)
        #expect(try await makeStore().load(id).favoriteHabits == ["Yoga"])
        #expect(try files() == ["\(id).json"])
    }

    /// Fifty concurrent read-modify-writes on one id: a lost update would drop a habit.
    @Test func concurrentTogglesOnOneIDLoseNothing() async throws {
        let store = try makeStore()
        let id = BrowserID.random()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try await store.update(id) { $0.favoriteHabits.append("habit\(index)") } }
            }
            try await group.waitForAll()
        }
        let saved = try await makeStore().load(id).favoriteHabits
        #expect(Set(saved) == Set((0..<50).map { "habit\($0)" }))
        #expect(saved.count == 50)
    }

    @Test func corruptFileIsMovedAsideLoggedAndReplacedByDefaults() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let id = BrowserID.random()
        try Data("{\"favoriteHabits\": [\"Yo".utf8).write(to: directory.appendingPathComponent("\(id).json"))
        let (logger, capture) = Logger.capturing()
        let store = try makeStore(logger: logger)
        #expect(await store.fileCount() == 1)

        #expect(try await store.load(id) == Prefs())

        let names = try files()
        #expect(names.count == 1)
        #expect(names[0].hasPrefix("\(id).json.corrupt-"))
        #expect(capture.lines.contains { $0.contains("corrupt settings file moved aside") })
        #expect(await store.fileCount() == 0)
        try await store.update(id) { $0.favoriteHabits = ["Run"] }
        #expect(try await store.load(id).favoriteHabits == ["Run"])
    }

    @Test func leftoverTempFilesAreSweptAtStart() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let id = BrowserID.random()
        try Data("{\"favoriteHabits\":[]}".utf8).write(to: directory.appendingPathComponent("\(id).json"))
        try Data("{\"fav".utf8).write(to: directory.appendingPathComponent("\(id).json.tmp-1234abcd"))
        let store = try makeStore()
        #expect(try files() == ["\(id).json"])
        #expect(await store.fileCount() == 1)
    }

    /// Regression (issue 8): at the cap every new browser got 503, for good. Now it evicts and gets in.
    @Test func newBrowserOverTheCapEvictsAndIsSaved() async throws {
        let store = try makeStore(maxFiles: 2)
        let first = BrowserID.random()
        let second = BrowserID.random()
        try await store.update(first) { $0.favoriteHabits = ["A"] }
        try await store.update(second) { $0.favoriteHabits = ["B"] }

        let third = BrowserID.random()
        try await store.update(third) { $0.favoriteHabits = ["C"] }
        #expect(try files().count == 2)
        #expect(try files().contains("\(third).json"))
        #expect(await store.fileCount() == 2)
        #expect(try await store.load(third).favoriteHabits == ["C"])
    }

    @Test func capCountsFilesAlreadyOnDisk() async throws {
        let old = BrowserID.random()
        try await makeStore().update(old) { $0.favoriteHabits = ["A"] }
        let store = try makeStore(maxFiles: 1)
        let new = BrowserID.random()
        try await store.update(new) { $0.favoriteHabits = ["B"] }
        #expect(try files() == ["\(new).json"])
    }

    @Test func replacingAFileLeavesNoTempFilesBehind() async throws {
        let store = try makeStore()
        let id = BrowserID.random()
        for index in 0..<5 {
            try await store.update(id) { $0.favoriteHabits.append("h\(index)") }
        }
        #expect(try files() == ["\(id).json"])
    }
}
