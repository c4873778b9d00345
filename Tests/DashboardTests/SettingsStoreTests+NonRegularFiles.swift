import Foundation
import Glibc
import Logging
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Regression (security review): a symlink, a directory or any other non-regular file at `<id>.json` made every
/// request of that browser answer 500. It is now treated like a corrupt file: never followed, moved aside (the link
/// itself, never what it points to), logged, and replaced by defaults.
extension SettingsStoreTests {
    @Test func symlinkIsMovedAsideWithoutTouchingItsTarget() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let outside = directory.path + "-outside.json"
        defer { unlink(outside) }
        let secret = #"{"favoriteHabits":["Secret"]}"#
        try Data(secret.utf8).write(to: URL(fileURLWithPath: outside))
        let id = BrowserID.random()
        let link = directory.appendingPathComponent("\(id).json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let (logger, capture) = Logger.capturing()
        let store = try makeStore(logger: logger)

        #expect(try await store.load(id) == Prefs())
        try await store.update(id) { $0.favoriteHabits = ["Run"] }

        #expect(try String(contentsOfFile: outside, encoding: .utf8) == secret)
        let names = try files()
        #expect(names.count == 2)
        #expect(names.contains("\(id).json"))
        let aside = try #require(names.first { $0.hasPrefix("\(id).json.corrupt-") })
        let asidePath = directory.appendingPathComponent(aside).path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: asidePath) == outside)
        #expect(try await store.load(id).favoriteHabits == ["Run"])
        #expect(capture.lines.contains { $0.contains("corrupt settings file moved aside") })
    }

    @Test func directoryIsMovedAsideWithItsContents() async throws {
        let id = BrowserID.random()
        let folder = directory.appendingPathComponent("\(id).json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("inside"))
        let store = try makeStore()

        #expect(try await store.load(id) == Prefs())
        try await store.update(id) { $0.favoriteHabits = ["Run"] }

        let aside = try #require(try files().first { $0.hasPrefix("\(id).json.corrupt-") })
        let kept = directory.appendingPathComponent(aside).appendingPathComponent("inside")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "keep")
        #expect(try await store.load(id).favoriteHabits == ["Run"])
    }

    /// A FIFO would block a plain `open` for reading forever, wedging the store's queue for every browser.
    @Test func fifoIsMovedAsideWithoutBlocking() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let id = BrowserID.random()
        #expect(mkfifo(directory.appendingPathComponent("\(id).json").path, 0o600) == 0)
        let store = try makeStore()

        #expect(try await store.load(id) == Prefs())
        #expect(try files().count == 1)
        #expect(try files()[0].hasPrefix("\(id).json.corrupt-"))
    }
}
