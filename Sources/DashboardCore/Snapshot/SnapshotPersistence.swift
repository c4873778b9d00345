import Foundation
import Glibc
import Logging
import Timing

/// Keeps the last good snapshot on disk across restarts (issue 13): `<directory>/snapshot.json`, a `SnapshotFile`.
///
/// - `load` runs once at start, before the first upstream call. Leftover temp files of a write cut short (`kill -9`)
///   are deleted; a file that is corrupt, of another format or from another upstream is renamed to
///   `snapshot.json.bad-<time>` (the newest `keptAside` are kept) with one log line; a file fetched longer ago than
///   `maxAge` is left in place, logged and not shown. Nothing it finds makes it throw.
/// - `save` only queues: a `CoalescingWriter` writes the latest queued snapshot at once and then at most once per
///   `minWriteInterval`, so neither a request nor a refresh waits on the disk. Each write is atomic: temp file,
///   fsync, rename, fsync the directory.
final class SnapshotPersistence: Sendable {
    /// Where and how often.
    public struct Configuration: Sendable, Equatable {
        /// The cache directory (`--cache-dir`); created when missing.
        public var directory: String
        /// The upstream's identity (its URL); a file written for another one is set aside.
        public var upstream: String
        /// A file fetched longer ago than this is not shown (`--cache-max-age`). Wall-clock seconds, unlike the
        /// other times: the file outlives the process, and across a restart only the wall clock means anything.
        public var maxAge: TimeInterval = 7 * 86_400
        /// The least time between two writes.
        public var minWriteInterval: Duration = .seconds(5)
        /// Set-aside files kept; older ones are deleted so a file broken at every start cannot fill the disk.
        public var keptAside = 3
        /// A larger file is not read (the built-in data set writes well under 1 MB).
        public var maxFileBytes = 64 << 20

        /// A configuration for `directory` and `upstream`.
        public init(directory: String, upstream: String) {
            self.directory = directory
            self.upstream = upstream
        }
    }

    /// What `load` found.
    public struct Loaded: Sendable {
        /// The snapshot built from the file.
        public let snapshot: Snapshot
        /// When its data was fetched (wall clock: it came from an earlier process).
        public let fetchedAt: Date
    }

    /// What a queued write needs: the upstream answers and their version, not the snapshot built from them (issue
    /// 23: a queued snapshot kept everything derived from an older version alive beside the current one for up to
    /// `minWriteInterval`; the answers alone are shared with the snapshot while it is current).
    private struct Pending {
        var inputs: SnapshotInputs
        var version: UInt64
        var fetchedAt: Date
    }

    /// The file's name in the directory.
    public static let fileName = "snapshot.json"

    /// The configuration.
    public let configuration: Configuration
    private let clock: any TimeSource
    private let logger: Logger
    /// Writes the latest queued snapshot, at most once per `minWriteInterval`.
    private let writer: CoalescingWriter<Pending>

    /// Creates the persistence; nothing is read or written until `load` or `save`.
    public init(configuration: Configuration, clock: any TimeSource = SystemTimeSource(), logger: Logger) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        let path = configuration.directory + "/" + Self.fileName
        writer = CoalescingWriter(minInterval: configuration.minWriteInterval, clock: clock) { pending in
            do {
                let file = SnapshotFile(
                    inputs: pending.inputs, version: pending.version, fetchedAt: pending.fetchedAt,
                    upstream: configuration.upstream)
                try FileIO.createPrivateDirectory(configuration.directory)
                try FileIO.writeAtomically(try file.encoded(), to: path, directory: configuration.directory)
                return true
            } catch {
                logger.warning(
                    "snapshot not written to disk", ["cache.file": path, "error": String(describing: error)])
                return false
            }
        }
    }

    /// `<directory>/snapshot.json`.
    public var path: String { configuration.directory + "/" + Self.fileName }

    /// Snapshots written so far.
    public var writes: Int { writer.writes }

    // MARK: - Loading

    /// The snapshot on disk, if there is a good one for this upstream (see the type's comment). Never throws: what
    /// it cannot use it logs and, when broken, sets aside.
    public func load(activeUserID: String) -> Loaded? {
        let directory = configuration.directory
        do {
            try FileIO.createPrivateDirectory(directory)
        } catch {
            logger.warning(
                "cache directory unusable: nothing is kept across restarts",
                ["cache.dir": directory, "error": String(describing: error)])
            return nil
        }
        removeLeftoverTemporaries()
        let started = clock.now
        guard
            let bytes = CacheFiles.read(
                path, limit: configuration.maxFileBytes, what: "snapshot", logger: logger,
                setAside: { setAside(because: $0) })
        else { return nil }
        do {
            let (file, snapshot) = try SnapshotFile.decode(
                bytes, upstream: configuration.upstream, now: clock.date, maxAge: configuration.maxAge,
                activeUserID: activeUserID)
            let elapsed = clock.now - started
            logger.notice(
                "snapshot loaded from disk: pages show it with the \"data as of\" notice until the upstream answers",
                [
                    "cache.file": path, "fetched.at": file.fetchedAt.formatted(.iso8601), "bytes": "\(bytes.count)",
                    "version": file.version, "load.ms": String(format: "%.1f", elapsed.fractionalMilliseconds),
                ])
            return Loaded(snapshot: snapshot, fetchedAt: file.fetchedAt)
        } catch {
            if case .tooOld = error {
                logger.notice("snapshot on disk not shown: \(error)", ["cache.file": path])
            } else {
                setAside(because: error.description)
            }
            return nil
        }
    }

    /// Deletes temp files a write cut short left behind (no writer runs yet: this is the start).
    private func removeLeftoverTemporaries() {
        let removed = CacheFiles.removeLeftoverTemporaries(of: Self.fileName, in: configuration.directory)
        if removed > 0 {
            logger.notice("removed temp files of an interrupted snapshot write", ["count": "\(removed)"])
        }
    }

    /// Moves the file to `snapshot.json.bad-<time>` (one log line), keeping only the newest `keptAside`.
    private func setAside(because reason: String) {
        do {
            let aside = try CacheFiles.setAside(
                Self.fileName, in: configuration.directory, at: clock.date, kept: configuration.keptAside)
            logger.warning(
                "snapshot on disk set aside, not shown: \(reason)", ["cache.file": path, "cache.aside": aside])
        } catch {
            logger.warning(
                "snapshot on disk not shown (\(reason)), and it could not be set aside",
                ["cache.file": path, "error": error.description])
        }
    }

    // MARK: - Saving

    /// Queues `snapshot` (fetched at `fetchedAt`) to be written; returns at once.
    public func save(_ snapshot: Snapshot, fetchedAt: Date) {
        writer.submit(Pending(inputs: snapshot.inputs, version: snapshot.version, fetchedAt: fetchedAt))
    }

    /// Writes what is queued now, on the caller's thread (graceful shutdown), whatever the interval says.
    public func flush() { writer.flush() }

    /// Returns once `count` snapshots have been written in all (tests).
    func waitForWrites(_ count: Int) async { await writer.waitForWrites(count) }

    /// Whether the background writer has stopped (tests).
    var writerIsIdle: Bool { writer.isIdle }
}
