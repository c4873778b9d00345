import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The stored snapshot's row (issue 19 point 4): `snapshot.json`'s document, its version and the status shown.
@Suite struct SharedSnapshotTests {
    let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000.1234)

    @Test func aRowRoundTripsToTheSameVersionAndData() throws {
        let snapshot = SnapshotPersistenceTests.fixtureSnapshot()
        let status = SharedSnapshot.Status(stale: true, fetchedAt: fetchedAt)
        let row = try SharedSnapshot(snapshot: snapshot, status: status, upstream: "u")
        #expect(row.version == snapshot.version)
        let read = SharedSnapshot(version: row.version, status: status, document: row.document)
        let rebuilt = try read.snapshot(upstream: "u", activeUserID: User.activeUserID)
        #expect(rebuilt.version == snapshot.version && rebuilt.inputs.habits == Fixture.habits)
    }

    @Test func theDocumentIsTheSnapshotFilesEncodingNotASecondOne() throws {
        let snapshot = SnapshotPersistenceTests.fixtureSnapshot()
        let status = SharedSnapshot.Status(stale: false, fetchedAt: fetchedAt)
        let row = try SharedSnapshot(snapshot: snapshot, status: status, upstream: "u")
        let file = try SnapshotFile(snapshot: snapshot, fetchedAt: status.fetchedAt, upstream: "u").encoded()
        #expect(row.document == file)
    }

    @Test func aStoredSnapshotIsShownHoweverOldItIs() throws {
        let old = SharedSnapshot.Status(stale: true, fetchedAt: Date(timeIntervalSince1970: 0))
        let row = try SharedSnapshot(snapshot: SnapshotPersistenceTests.fixtureSnapshot(), status: old, upstream: "u")
        #expect(throws: Never.self) { try row.snapshot(upstream: "u", activeUserID: User.activeUserID) }
    }

    @Test func aRowFromAnotherUpstreamOrWithAnotherVersionIsRefused() throws {
        let status = SharedSnapshot.Status(stale: false, fetchedAt: fetchedAt)
        let row = try SharedSnapshot(
            snapshot: SnapshotPersistenceTests.fixtureSnapshot(), status: status, upstream: "u")
        #expect(throws: SnapshotFile.Rejection.foreignUpstream("u")) {
            try row.snapshot(upstream: "v", activeUserID: User.activeUserID)
        }
        let mislabelled = SharedSnapshot(version: row.version &+ 1, status: status, document: row.document)
        #expect(throws: SnapshotFile.Rejection.self) {
            try mislabelled.snapshot(upstream: "u", activeUserID: User.activeUserID)
        }
    }

    @Test func theStatusKeepsWholeMillisecondsAsTheColumnDoes() {
        let status = SharedSnapshot.Status(stale: false, fetchedAt: fetchedAt)
        let column = SharedSnapshot.Status.millisecondsSince1970(status.fetchedAt)
        #expect(column == 1_800_000_000_123)
        #expect(SharedSnapshot.Status(stale: false, fetchedAt: SharedSnapshot.Status.milliseconds(column)) == status)
    }

    @Test func versionsSurviveTheSignedColumn() {
        for version: UInt64 in [0, 1, .max, 1 << 63] {
            #expect(SharedSnapshot.version(column: SharedSnapshot.column(version)) == version)
        }
    }
}
