import Foundation
import Glibc
import Logging
import Synchronization

/// Keeps the last good snapshot on disk across restarts (issue 13): `<directory>/snapshot.json`, a `SnapshotFile`.
///
/// - `load` runs once at start, before the first upstream call. Leftover temp files of a write cut short (`kill -9`)
///   are deleted; a file that is corrupt, of another format or from another upstream is renamed to
///   `snapshot.json.bad-<time>` (the newest `keptAside` are kept) with one log line; a file fetched longer ago than
///   `maxAge` is left in place, logged and not shown. Nothing it finds makes it throw.
/// - `save` only queues: a background writer writes the latest queued snapshot at once and then at most once per
///   `minWriteInterval` (a newer one queued meanwhile replaces the older, which is never written), so neither a
///   request nor a refresh waits on the disk. Each write is atomic: temp file, fsync, rename, fsync the directory.
public final class SnapshotPersistence: Sendable {
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

    private struct Pending {
        var snapshot: Snapshot
        var fetchedAt: Date
        var sequence: Int
    }

    private struct State {
        var pending: Pending?
        var nextSequence = 1
        var writerRunning = false
        var writes = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// The file's name in the directory.
    public static let fileName = "snapshot.json"

    /// The configuration.
    public let configuration: Configuration
    private let clock: any SnapshotClock
    private let logger: Logger
    private let state = Mutex(State())
    /// Serialises writes (the background writer and `flush`); holds the sequence last written, so an older snapshot
    /// never replaces a newer one.
    private let writeLock = Mutex(0)

    /// Creates the persistence; nothing is read or written until `load` or `save`.
    public init(configuration: Configuration, clock: any SnapshotClock = SystemSnapshotClock(), logger: Logger) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// `<directory>/snapshot.json`.
    public var path: String { configuration.directory + "/" + Self.fileName }

    /// Snapshots written so far.
    public var writes: Int { state.withLock { $0.writes } }

    // MARK: - Loading

    /// The snapshot on disk, if there is a good one for this upstream (see the type's comment). Never throws: what
    /// it cannot use it logs and, when broken, sets aside.
    public func load(activeUserID: String) -> Loaded? {
        let directory = configuration.directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            logger.warning(
                "cache directory unusable: nothing is kept across restarts",
                ["cache.dir": directory, "error": String(describing: error)])
            return nil
        }
        removeLeftoverTemporaries()
        let started = ContinuousClock.now
        let bytes: [UInt8]
        do {
            guard let read = try FileIO.readIfExists(path, limit: configuration.maxFileBytes) else {
                logger.info("no snapshot on disk", ["cache.file": path])
                return nil
            }
            bytes = read.bytes
        } catch {
            if error.isMovedAside {
                setAside(because: "it is not a regular file or is too large (\(error))")
            } else {
                logger.warning("snapshot on disk unreadable", ["cache.file": path, "error": error.description])
            }
            return nil
        }
        do {
            let (file, snapshot) = try SnapshotFile.decode(
                bytes, upstream: configuration.upstream, now: clock.date, maxAge: configuration.maxAge,
                activeUserID: activeUserID)
            let elapsed = ContinuousClock.now - started
            logger.notice(
                "snapshot loaded from disk: pages show it with the \"data as of\" notice until the upstream answers",
                [
                    "cache.file": path, "fetched.at": file.fetchedAt.formatted(.iso8601), "bytes": "\(bytes.count)",
                    "version": file.version, "load.ms": Self.milliseconds(elapsed),
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

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f", value)
    }

    /// Deletes temp files a write cut short left behind (no writer runs yet: this is the start).
    private func removeLeftoverTemporaries() {
        let prefix = Self.fileName + FileIO.temporaryMarker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configuration.directory)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            if (try? FileIO.remove(configuration.directory + "/" + name)) == true { removed += 1 }
        }
        if removed > 0 {
            logger.notice("removed temp files of an interrupted snapshot write", ["count": "\(removed)"])
        }
    }

    /// Moves the file to `snapshot.json.bad-<time>` (one log line), then keeps only the newest `keptAside`.
    private func setAside(because reason: String) {
        let stamp = Self.stamp(clock.date)
        var aside = path + ".bad-" + stamp
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside) {
            attempt += 1
            aside = path + ".bad-" + stamp + "-\(attempt)"
        }
        do {
            try FileIO.move(path, to: aside, directory: configuration.directory)
            logger.warning(
                "snapshot on disk set aside, not shown: \(reason)", ["cache.file": path, "cache.aside": aside])
        } catch {
            logger.warning(
                "snapshot on disk not shown (\(reason)), and it could not be set aside",
                ["cache.file": path, "error": error.description])
        }
        let prefix = Self.fileName + ".bad-"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: configuration.directory)) ?? [])
            .filter { $0.hasPrefix(prefix) }.sorted()
        for name in names.dropLast(configuration.keptAside) {
            _ = try? FileIO.remove(configuration.directory + "/" + name)
        }
    }

    /// `20261201T101500.123Z`: sorts by time, and is a valid file name everywhere.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let milliseconds = String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "." + milliseconds + "Z"
    }

    // MARK: - Saving

    /// Queues `snapshot` (fetched at `fetchedAt`) to be written; returns at once.
    public func save(_ snapshot: Snapshot, fetchedAt: Date) {
        let startWriter = state.withLock { state -> Bool in
            state.pending = Pending(snapshot: snapshot, fetchedAt: fetchedAt, sequence: state.nextSequence)
            state.nextSequence += 1
            guard !state.writerRunning else { return false }
            state.writerRunning = true
            return true
        }
        if startWriter { Task.detached { await self.runWriter() } }
    }

    /// Writes what is queued now, on the caller's thread (graceful shutdown), whatever the interval says.
    public func flush() {
        guard
            let pending = state.withLock({ state in
                defer { state.pending = nil }
                return state.pending
            })
        else {
            return
        }
        write(pending)
    }

    /// Returns once `count` snapshots have been written in all (tests).
    func waitForWrites(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.writes >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Writes the queued snapshot, waits the interval, again while something is queued.
    private func runWriter() async {
        while true {
            let next = state.withLock { state -> Pending? in
                guard let pending = state.pending else {
                    state.writerRunning = false
                    return nil
                }
                state.pending = nil
                return pending
            }
            guard let next else { return }
            // The pause's end is fixed before the write, so a clock moved meanwhile still ends it.
            let pauseEnd = clock.now + configuration.minWriteInterval
            write(next)
            await clock.sleep(until: pauseEnd)
        }
    }

    private func write(_ pending: Pending) {
        let wrote = writeLock.withLock { lastSequence -> Bool in
            guard pending.sequence > lastSequence else { return false }
            lastSequence = pending.sequence
            do {
                let file = SnapshotFile(
                    snapshot: pending.snapshot, fetchedAt: pending.fetchedAt, upstream: configuration.upstream)
                try FileManager.default.createDirectory(
                    atPath: configuration.directory, withIntermediateDirectories: true)
                try FileIO.writeAtomically(try file.encoded(), to: path, directory: configuration.directory)
                return true
            } catch {
                logger.warning(
                    "snapshot not written to disk", ["cache.file": path, "error": String(describing: error)])
                return false
            }
        }
        guard wrote else { return }
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writes += 1
            let writes = state.writes
            let due = state.waiters.filter { $0.count <= writes }.map(\.continuation)
            state.waiters.removeAll { $0.count <= writes }
            return due
        }
        for continuation in woken { continuation.resume() }
    }
}
