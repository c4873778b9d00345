import Foundation
import HabitsAPI
import Logging
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// `snapshot.json` in a temp directory with a manual clock (issue 13): what a start loads, what it sets aside and
/// why, what a write cut short leaves, and how often writes happen.
@Suite struct SnapshotPersistenceTests {
    static let upstream = "http://127.0.0.1:9"
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)").path
    let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))

    static func fixtureSnapshot() -> Snapshot {
        Snapshot(
            inputs: SnapshotInputs(
                users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories,
                statistics: Fixture.combined))
    }

    func persistence(
        upstream: String = upstream, maxAge: TimeInterval = 7 * 86_400, logger: Logger = .silent
    ) -> SnapshotPersistence {
        var configuration = SnapshotPersistence.Configuration(directory: directory, upstream: upstream)
        configuration.maxAge = maxAge
        return SnapshotPersistence(configuration: configuration, clock: clock, logger: logger)
    }

    var path: String { directory + "/" + SnapshotPersistence.fileName }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    func writeGoodFile(fetchedAt: Date? = nil, upstream: String = upstream) throws -> Snapshot {
        let snapshot = Self.fixtureSnapshot()
        let file = SnapshotFile(snapshot: snapshot, fetchedAt: fetchedAt ?? clock.date, upstream: upstream)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(try file.encoded()).write(to: URL(fileURLWithPath: path))
        return snapshot
    }

    @Test func aSavedSnapshotLoadsWithItsVersionDataAndFetchTime() async throws {
        let writer = persistence()
        let snapshot = Self.fixtureSnapshot()
        let fetchedAt = clock.date.addingTimeInterval(-60)
        writer.save(snapshot, fetchedAt: fetchedAt)
        await writer.waitForWrites(1)

        let loaded = try #require(persistence().load(activeUserID: User.activeUserID))
        #expect(loaded.snapshot.version == snapshot.version)
        #expect(loaded.snapshot.inputs.statistics == Fixture.combined)
        #expect(loaded.snapshot.inputs.users == Fixture.users)
        #expect(abs(loaded.fetchedAt.timeIntervalSince(fetchedAt)) < 1, "ISO 8601 keeps whole seconds")
        #expect(names() == [SnapshotPersistence.fileName])
    }

    @Test func theEnvelopeNamesFormatUpstreamVersionAndFetchTime() async throws {
        let writer = persistence()
        let snapshot = Self.fixtureSnapshot()
        writer.save(snapshot, fetchedAt: clock.date)
        await writer.waitForWrites(1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(object["format"] as? Int == SnapshotFile.currentFormat)
        #expect(object["upstream"] as? String == Self.upstream)
        #expect(object["version"] as? String == SnapshotFile.hex(snapshot.version))
        #expect(object["fetchedAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(object["inputs"] is [String: Any])
    }

    @Test func noFileLoadsNothingAndCreatesTheDirectory() {
        #expect(persistence().load(activeUserID: User.activeUserID) == nil)
        #expect(FileManager.default.fileExists(atPath: directory))
    }

    @Test(arguments: [
        ("not json at all", "corrupt"),
        ("{\"format\":1,\"upstream\":\"http://127.0.0.1:9\"}", "corrupt"),
        ("{\"format\":0,\"upstream\":\"http://127.0.0.1:9\",\"inputs\":[]}", "format 0"),
        ("{\"format\":2,\"upstream\":\"http://127.0.0.1:9\"}", "format 2"),
    ])
    func aBrokenOrOtherFormatFileIsSetAsideWithOneLogLine(content: String, reason: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let (logger, capture) = Logger.capturing()
        #expect(persistence(logger: logger).load(activeUserID: User.activeUserID) == nil)
        let warnings = capture.lines.filter { $0.contains("set aside") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(reason) == true)
        #expect(names().count == 1 && names()[0].hasPrefix("snapshot.json.bad-"))
    }

    @Test func aFileFromAnotherUpstreamIsSetAside() throws {
        _ = try writeGoodFile(upstream: "http://elsewhere:8080")
        let (logger, capture) = Logger.capturing()
        #expect(persistence(logger: logger).load(activeUserID: User.activeUserID) == nil)
        #expect(capture.lines.contains { $0.contains("another upstream") && $0.contains("elsewhere") })
        #expect(names().count == 1 && names()[0].hasPrefix("snapshot.json.bad-"))
    }

    @Test func aFileWhoseContentDoesNotMatchItsVersionIsSetAside() throws {
        _ = try writeGoodFile()
        var text = try String(contentsOfFile: path, encoding: .utf8)
        // Still valid JSON, but not the data the version was computed from.
        text = text.replacingOccurrences(of: "\"count\":", with: "\"count\":1")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let (logger, capture) = Logger.capturing()
        #expect(persistence(logger: logger).load(activeUserID: User.activeUserID) == nil)
        #expect(capture.lines.contains { $0.contains("does not match") })
        #expect(names().first?.hasPrefix("snapshot.json.bad-") == true)
    }

    @Test func aFileOlderThanTheMaxAgeIsNotShownButKept() throws {
        _ = try writeGoodFile(fetchedAt: clock.date.addingTimeInterval(-3 * 86_400))
        let (logger, capture) = Logger.capturing()
        #expect(persistence(maxAge: 2 * 86_400, logger: logger).load(activeUserID: User.activeUserID) == nil)
        #expect(capture.lines.contains { $0.contains("--cache-max-age") })
        #expect(names() == [SnapshotPersistence.fileName])
        #expect(persistence(maxAge: 4 * 86_400).load(activeUserID: User.activeUserID) != nil)
    }

    /// `kill -9` in the middle of a write leaves a temp file (whole or cut short) beside the previous good file: the
    /// good file loads, the temp files go.
    @Test func aWriteCutShortLeavesThePreviousGoodFileToLoad() throws {
        let snapshot = try writeGoodFile()
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: path + FileIO.temporaryMarker + "1a2b"))
        try Data().write(to: URL(fileURLWithPath: path + FileIO.temporaryMarker + "3c4d"))
        let loaded = try #require(persistence().load(activeUserID: User.activeUserID))
        #expect(loaded.snapshot.version == snapshot.version)
        #expect(names() == [SnapshotPersistence.fileName])
    }

    @Test func setAsideFilesAreBoundedToTheNewestFew() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for _ in 0..<5 {
            try Data("broken".utf8).write(to: URL(fileURLWithPath: path))
            _ = persistence().load(activeUserID: User.activeUserID)
            clock.advance(by: .seconds(1))
        }
        #expect(names().count == SnapshotPersistence.Configuration(directory: "", upstream: "").keptAside)
        #expect(names().last == "snapshot.json.bad-20270115T080004.000Z")
    }

    /// At most one write per interval; versions saved meanwhile are coalesced and the latest wins.
    @Test func writesAreCoalescedToOnePerIntervalAndTheLatestWins() async throws {
        let writer = persistence()
        let first = Self.fixtureSnapshot()
        writer.save(first, fetchedAt: clock.date)
        await writer.waitForWrites(1)
        var inputs = first.inputs
        inputs.categories = []
        let second = Snapshot(inputs: inputs)
        inputs.habits = [:]
        let third = Snapshot(inputs: inputs)
        writer.save(second, fetchedAt: clock.date)
        writer.save(third, fetchedAt: clock.date)
        await eventually("the writer sleeping out its interval") { clock.sleeperCount >= 1 }
        #expect(writer.writes == 1)
        clock.advance(by: .seconds(4.9))
        #expect(writer.writes == 1)
        clock.advance(by: .seconds(0.1))
        await writer.waitForWrites(2)
        let loaded = try #require(persistence().load(activeUserID: User.activeUserID))
        #expect(loaded.snapshot.version == third.version)
        // The writer wakes once more, finds nothing queued and stops: only then can a late write be ruled out.
        clock.advance(by: .seconds(5))
        await eventually("the writer done") { writer.writerIsIdle }
        #expect(writer.writes == 2, "the second version was never written")
    }

    @Test func flushWritesWhatIsQueuedAtOnce() async throws {
        let writer = persistence()
        writer.save(Self.fixtureSnapshot(), fetchedAt: clock.date)
        await writer.waitForWrites(1)
        var inputs = Self.fixtureSnapshot().inputs
        inputs.categories = []
        let second = Snapshot(inputs: inputs)
        writer.save(second, fetchedAt: clock.date)
        writer.flush()
        #expect(writer.writes == 2)
        #expect(persistence().load(activeUserID: User.activeUserID)?.snapshot.version == second.version)
    }

    @Test func anUnwritableDirectoryIsLoggedNotThrown() throws {
        let blocker = directory + "-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        var configuration = SnapshotPersistence.Configuration(directory: blocker + "/cache", upstream: Self.upstream)
        configuration.maxAge = 1
        let (logger, capture) = Logger.capturing()
        let persistence = SnapshotPersistence(configuration: configuration, clock: clock, logger: logger)
        #expect(persistence.load(activeUserID: User.activeUserID) == nil)
        persistence.save(Self.fixtureSnapshot(), fetchedAt: clock.date)
        persistence.flush()
        #expect(capture.lines.contains { $0.contains("cache directory unusable") })
    }
}
