import Foundation

/// The snapshot the leader stores for the whole cluster (issue 19 point 4): one row holding the same `SnapshotFile`
/// document `snapshot.json` holds (the upstream's answers, their version and upstream; one encoding, not two), beside
/// the version (read on its own, so a follower knows whether to load the document), and the status every dashboard
/// shows with it: whether the data is stale and when it was fetched.
///
/// The status is the leader's, stored, not each dashboard's own judgement, so a dead API shows the same "data as of"
/// notice, with the same time, on every dashboard, and their pages keep the same bytes and ETags.
struct SharedSnapshot: Equatable, Sendable {
    /// `Snapshot.version`.
    var version: UInt64
    /// What every dashboard shows with the data.
    var status: Status
    /// The `SnapshotFile` bytes.
    var document: [UInt8]

    /// Whether the data is stale, and since when it is known.
    struct Status: Equatable, Sendable {
        /// The upstream failed (or the data is older than the stale bound) when the leader last looked.
        var stale: Bool
        /// When the data was last fetched, on the leader's wall clock, in whole milliseconds (what the row keeps, so
        /// the leader shows the same instant its followers read back).
        var fetchedAt: Date

        /// A status with `fetchedAt` cut to whole milliseconds.
        init(stale: Bool, fetchedAt: Date) {
            self.stale = stale
            self.fetchedAt = Self.milliseconds(Self.millisecondsSince1970(fetchedAt))
        }

        /// Whole milliseconds since 1970 of `date` (what the row's column holds).
        static func millisecondsSince1970(_ date: Date) -> Int64 {
            let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return value.isFinite ? Int64(max(min(value, 1e15), -1e15)) : 0
        }

        /// The date of `milliseconds` since 1970.
        static func milliseconds(_ milliseconds: Int64) -> Date {
            Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
    }

    /// The row for `snapshot` with `status`, for `upstream`.
    init(snapshot: Snapshot, status: Status, upstream: String) throws {
        version = snapshot.version
        self.status = status
        document = try SnapshotFile(snapshot: snapshot, fetchedAt: status.fetchedAt, upstream: upstream).encoded()
    }

    /// A row as read back.
    init(version: UInt64, status: Status, document: [UInt8]) {
        self.version = version
        self.status = status
        self.document = document
    }

    /// The snapshot the document holds, checked as a file on disk is (format, upstream, version against content),
    /// whatever its age: a stored snapshot is shown with its status, never refused for being old.
    func snapshot(upstream: String, activeUserID: String) throws(SnapshotFile.Rejection) -> Snapshot {
        let (_, snapshot) = try SnapshotFile.decode(
            document, upstream: upstream, now: status.fetchedAt, maxAge: .infinity, activeUserID: activeUserID)
        guard snapshot.version == version else {
            throw .corrupt(
                "the row's version \(SnapshotFile.hex(version)) is not the document's \(SnapshotFile.hex(snapshot.version))"
            )
        }
        return snapshot
    }

    /// The version as the row's `bigint` column holds it.
    static func column(_ version: UInt64) -> Int64 { Int64(bitPattern: version) }

    /// The version a `bigint` column held.
    static func version(column: Int64) -> UInt64 { UInt64(bitPattern: column) }
}
