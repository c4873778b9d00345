import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Dashboard

/// `history.bin` in a temp directory (issue 22 point 1): a round trip keeps every tier and rank change, a restart
/// continues the lines with the downtime as a gap, and a damaged or foreign file is set aside, never half-read.
@Suite struct HistoryFileTests {
    static let upstream = "http://127.0.0.1:9"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)").path
    let clock = ManualClock(date: start)

    func file(upstream: String = upstream) -> HistoryFile {
        HistoryFile(directory: directory, upstream: upstream, clock: clock, logger: .silent)
    }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    static func record() -> HistoryRecord {
        var history = TrendHistory()
        let second = Int(start.timeIntervalSince1970)
        history.record(habitTotals: ["Yoga": 3, "Run": 1], userTotals: ["user1": 4], second: second)
        history.record(habitTotals: ["Yoga": 5], userTotals: ["user1": 6], second: second + 40)
        let change = RankChange(
            kind: .passedYou, habit: "Yoga", userID: "user1", userName: "Amy <b>", yourRank: 2, second: second + 40)
        let tie = RankChange(
            kind: .tiedLead, habit: "Yoga", userID: "user1", userName: "Amy <b>", yourRank: 2, second: second + 40,
            others: [RankChange.Person(id: "user2", name: "Bob"), RankChange.Person(id: "me", name: "you")])
        return HistoryRecord(history: history, moments: MomentLog(changes: [change, tie]))
    }

    /// `record`'s bytes as format 1 wrote them: its one rank change carries no people (format 2 writes their count,
    /// 0, as the last four bytes before the digest).
    static func formatOneBytes(_ record: HistoryRecord) -> [UInt8] {
        var bytes = Array(HistoryFileFormat.encode(record, upstream: upstream).dropLast(12))
        bytes.replaceSubrange(
            HistoryFileFormat.magic.count..<(HistoryFileFormat.magic.count + 4), with: [1, 0, 0, 0])
        var digest = ContentDigest()
        for byte in bytes { digest.feed(byte: byte) }
        let bits = digest.value
        return bytes + stride(from: 0, to: 64, by: 8).map { UInt8(truncatingIfNeeded: bits >> $0) }
    }

    @Test func aFileOfFormatOneBeforeLeadChangesNamedPeopleIsStillRead() throws {
        var record = Self.record()
        record.moments = MomentLog(changes: [record.moments.changes[0]])
        let decoded = try HistoryFileFormat.decode(Self.formatOneBytes(record), upstream: Self.upstream)
        #expect(decoded == record, "the decoded record differs")
    }

    @Test func aRecordRoundTripsThroughItsBytes() throws {
        let record = Self.record()
        let bytes = HistoryFileFormat.encode(record, upstream: Self.upstream)
        let decoded = try HistoryFileFormat.decode(bytes, upstream: Self.upstream)
        #expect(decoded == record, "the decoded record differs")
        #expect(bytes.count == HistoryFileFormat.size(of: record, upstream: Self.upstream))
    }

    @Test func everyCutAndEveryFlippedByteIsCaught() throws {
        let bytes = HistoryFileFormat.encode(Self.record(), upstream: Self.upstream)
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(throws: HistoryFileFormat.Rejection.self) {
                try HistoryFileFormat.decode(Array(bytes.prefix(length)), upstream: Self.upstream)
            }
        }
        for index in stride(from: 0, to: bytes.count, by: 13) {
            var damaged = bytes
            damaged[index] ^= 0x40
            #expect(throws: HistoryFileFormat.Rejection.self) {
                try HistoryFileFormat.decode(damaged, upstream: Self.upstream)
            }
        }
    }

    @Test func aSavedRecordLoadsBackAfterARestart() async throws {
        let writer = file()
        writer.save(Self.record())
        await writer.waitForWrites(1)
        let loaded = file().load()
        #expect(loaded == Self.record(), "the loaded record differs")
        #expect(names() == [HistoryFile.fileName])
    }

    @Test func aCorruptFileIsSetAsideAndTheHistoryStartsEmpty() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("HABITSH\nnot really".utf8).write(to: URL(fileURLWithPath: directory + "/" + HistoryFile.fileName))
        try Data().write(
            to: URL(fileURLWithPath: directory + "/" + HistoryFile.fileName + FileIO.temporaryMarker + "x"))
        #expect(file().load() == nil)
        #expect(names() == [HistoryFile.fileName + ".bad-20270115T080000.000Z"])
        let history = ActivityHistory(store: file())
        #expect(history.latestSlot == nil)
    }

    @Test func aFileFromAnotherUpstreamIsSetAside() async throws {
        let writer = file(upstream: "http://elsewhere:1")
        writer.save(Self.record())
        await writer.waitForWrites(1)
        #expect(file().load() == nil)
        #expect(names().count == 1)
        #expect(names().first?.hasPrefix(HistoryFile.fileName + ".bad-") == true)
    }

    /// A restart: the lines go on from the file, the time the dashboard was down a gap.
    @Test func aRestartContinuesTheLinesWithTheDowntimeAsAGap() async throws {
        let snapshots = [3, 5, 9].map { count in
            Snapshot(
                inputs: SnapshotInputs(
                    users: TestData.users, habits: TestData.habits,
                    statistics: TestData.statistics(["Yoga": ["user1": count]])))
        }
        let store = file()
        let first = ActivityHistory(store: store)
        first.record(snapshots[0], at: Self.start)
        first.record(snapshots[1], at: Self.start + 10)
        first.flush()
        let second = ActivityHistory(store: file())
        #expect(second.habitTrend("Yoga")?.samples == [3, 5])
        second.record(snapshots[2], at: Self.start + 40)
        #expect(second.habitTrend("Yoga")?.samples == [3, 5, nil, nil, 9])
        #expect(second.personTrend("user1", range: .day)?.samples == [9])
    }
}
