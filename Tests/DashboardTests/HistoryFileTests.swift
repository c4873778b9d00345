import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

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

    @Test func aRecordRoundTripsThroughItsBytes() throws {
        let record = Self.record()
        let bytes = HistoryFileFormat.encode(record, upstream: Self.upstream)
        let decoded = try HistoryFileFormat.decode(bytes, upstream: Self.upstream)
        #expect(decoded == record, "the decoded record differs")
        #expect(bytes.count == HistoryFileFormat.size(of: record, upstream: Self.upstream))
    }

    /// A file written before issue 47 (format 1: each slot's last total only, and rank changes naming nobody but their
    /// person) still loads: each slot's first total is its last, so the lines and the figures are what they were, and
    /// each change names no one else.
    @Test func aFileOfTheFormerFormatLoadsWithEachSlotsFirstTotalItsLastAndChangesNamingNobodyElse() throws {
        var out: [UInt8] = HistoryFileFormat.magic
        func u32(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        func i64(_ value: Int64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                out.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> shift))
            }
        }
        func string(_ text: String) {
            u32(UInt32(text.utf8.count))
            out += text.utf8
        }
        u32(1)
        string(Self.upstream)
        u32(3)
        for (spacing, capacity) in TrendHistory.standardTiers {
            u32(UInt32(spacing))
            u32(UInt32(capacity))
            out.append(1)
            i64(Int64(1_800_000_000 / spacing))
            u32(1)  // habits: Yoga, 3 then a gap then 7
            string("Yoga")
            u32(3)
            for sample in [3, Int32.min, 7] as [Int32] { u32(UInt32(bitPattern: sample)) }
            u32(0)  // people
        }
        u32(1)  // rank changes: kind, habit, person id and name, your rank, second; no people after them
        out.append(RankChange.Kind.passedYou.rawValue)
        string("Yoga")
        string("user1")
        string("Amy <b>")
        u32(2)
        i64(1_800_000_040)
        var digest = ContentDigest()
        for byte in out { digest.feed(byte: byte) }
        i64(Int64(bitPattern: digest.value))

        let decoded = try HistoryFileFormat.decode(out, upstream: Self.upstream)
        #expect(
            decoded.moments.changes == [
                RankChange(
                    kind: .passedYou, habit: "Yoga", userID: "user1", userName: "Amy <b>", yourRank: 2,
                    second: 1_800_000_040)
            ])
        let history = decoded.history
        for tier in history.tiers {
            #expect(tier.habits.slots("Yoga")?.first == [3, nil, 7])
            #expect(tier.habits.slots("Yoga")?.last == [3, nil, 7])
        }
        #expect(history.trend("Yoga", person: false, range: .day)?.change == 4)
        // Written again, it is the current format and reads back the same.
        let again = HistoryRecord(history: history, moments: MomentLog())
        let bytes = HistoryFileFormat.encode(again, upstream: Self.upstream)
        #expect(bytes[8..<12] == [2, 0, 0, 0])
        #expect(try HistoryFileFormat.decode(bytes, upstream: Self.upstream) == again)
    }

    @Test func eachSlotKeepsItsFirstAndLastTotalThroughTheFile() throws {
        var history = TrendHistory()
        let second = Int(Self.start.timeIntervalSince1970)
        for (offset, total) in [(0, 395), (120, 410), (290, 424)] {
            history.record(habitTotals: ["Herbal tea": total], userTotals: [:], second: second + offset)
        }
        let record = HistoryRecord(history: history, moments: MomentLog())
        let decoded = try HistoryFileFormat.decode(
            HistoryFileFormat.encode(record, upstream: Self.upstream), upstream: Self.upstream)
        let day = try #require(decoded.history.trend("Herbal tea", person: false, range: .day))
        #expect(day.extremes?.low == 395)
        #expect(day.change == 29)
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
