import Dispatch
import Foundation
import Logging
import Synchronization

/// Per-browser settings, one JSON file per browser: `<directory>/<id>.json`, with a bounded in-memory cache in front.
///
/// - The file is the truth. Writes go through to it atomically (`FileIO.writeAtomically`: temp file, fsync, rename,
///   fsync of the directory) and then into the cache.
/// - Reads never queue behind writes (issue 8 measured page loads going from 1.6 to 16.3 ms when reads waited on the
///   writers' queue): a read `lstat`s the file, answers from the cache when the file is the one the cache copied,
///   and otherwise reads the file itself, on the caller's thread. Atomic renames mean it sees the old or the new
///   file, never half of one. Checking the file on every read is what lets several processes share the directory
///   (issue 11): a write by another one changes the inode and the mtime, and the next read here reloads.
/// - Read-modify-write runs on one serial queue per store (blocking fsyncs stay off Swift's cooperative pool) and
///   holds the id's `StripeLocks` flock, so two toggles in two processes never lose one.
/// - A corrupt file, or anything at `<id>.json` that is not a regular file (a symlink is never followed), is moved
///   aside to `<id>.json.corrupt-<timestamp>`, logged, and replaced by defaults.
/// - Files unused for `maxAge` expire, and at `maxFiles` the least valuable files are evicted (`SweepPlan`), so a new
///   browser is never refused for lack of room (`SettingsStore+Sweep.swift`).
///
/// Generic over the stored value so the store does not depend on the view-model layer's `Settings` type.
public final class SettingsStore<Value: Codable & Sendable>: Sendable {
    /// The directory holding the files.
    public let directory: URL
    /// The most settings files kept; a new browser beyond it evicts others (`SweepPlan`).
    public let maxFiles: Int
    /// How long settings nobody reads or writes are kept, in wall-clock seconds (compared with the files' own times).
    public let maxAge: TimeInterval
    /// What a browser without a file (or with a corrupt one) gets.
    public let defaultValue: Value

    /// Files above this size are treated as corrupt (a real settings file is a few hundred bytes).
    static var maxFileBytes: Int { 1 << 20 }

    /// A read refreshes a file's read mark at most this often (one metadata write per browser per hour), which is
    /// the precision of "last used" for expiry and eviction.
    static var readMarkInterval: Int64 { 3600 * 1_000_000_000 }

    let logger: Logger
    /// The wall clock, unlike the rest of the dashboard's deadlines: usage times live in the files' own mtime and
    /// atime (`FileUsage`), which the kernel keeps on the wall clock, which other processes sharing the directory
    /// read, and which outlive a restart. A monotonic instant means nothing to any of them.
    let now: @Sendable () -> Date
    /// Runs every read-modify-write and every deletion; never a plain read.
    let queue = DispatchQueue(label: "settings-store")
    /// Runs the directory scans of evictions ahead of the cap (`evictAheadIfNearTheCap`).
    let sweepQueue = DispatchQueue(label: "settings-evict-ahead", qos: .utility)
    let locks: StripeLocks
    let cache: Mutex<LRUCache<BrowserID, CacheEntry>>
    let counts = Mutex(Counts())
    /// Called on the queue just before a file is written (tests slow the writer down with it).
    let beforeWrite: (@Sendable () -> Void)?
    /// What a browser without a file reads: `defaultValue`, version 0, and the digest of its encoding.
    public let defaults: Versioned<Value>

    /// A cached copy of a file and which file it was copied from.
    struct CacheEntry: Sendable {
        var loaded: Versioned<Value>
        var identity: FileStatus.Identity
    }

    /// The file count: exact for this process's own changes, re-counted from the directory by every sweep (other
    /// processes sharing it add files this one only learns of then).
    struct Counts {
        var files = 0
        /// Files this store has created since it started; lets a sweep add the ones created while it scanned.
        var created = 0
        /// An eviction ahead of the cap is running.
        var evictingAhead = false
    }

    /// Opens (creating if needed) `directory`, sweeps it once (leftover temp files, expired settings, files over the
    /// cap) and counts the settings files. `now` is the clock for usage times and expiry.
    public convenience init(
        directory: URL, maxFiles: Int = 100_000, maxAge: TimeInterval = 400 * 86_400, cacheCapacity: Int = 10_000,
        defaultValue: Value, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(
            directory: directory, maxFiles: maxFiles, maxAge: maxAge, cacheCapacity: cacheCapacity,
            defaultValue: defaultValue, logger: logger, now: now, beforeWrite: nil)
    }

    /// The full initializer; `beforeWrite` is for tests.
    init(
        directory: URL, maxFiles: Int, maxAge: TimeInterval, cacheCapacity: Int, defaultValue: Value, logger: Logger,
        now: @escaping @Sendable () -> Date, beforeWrite: (@Sendable () -> Void)?
    ) throws {
        self.directory = directory.standardizedFileURL
        self.maxFiles = max(1, maxFiles)
        self.maxAge = maxAge
        self.defaultValue = defaultValue
        self.logger = logger
        self.now = now
        self.beforeWrite = beforeWrite
        self.cache = Mutex(LRUCache(capacity: cacheCapacity))
        try FileIO.createPrivateDirectory(self.directory.path)
        locks = try StripeLocks(settingsDirectory: self.directory.path)
        let bytes = try Self.encode(defaultValue)
        defaults = Versioned(value: defaultValue, version: 0, digest: SettingsDigest.of(bytes))
        let report = try sweep()
        // A store that opens full would otherwise make its first new browser wait for a scan.
        evictAheadIfNearTheCap()
        logger.info(
            "settings store ready",
            [
                "settings.dir": self.directory.path, "settings.files": String(report.kept),
                "settings.max": String(self.maxFiles), "settings.expired": String(report.expired),
                "settings.evicted": String(report.evicted),
            ])
    }

    /// The number of settings files (for `/metrics` and tests).
    public func fileCount() async -> Int {
        counts.withLock { $0.files }
    }

    /// The settings of `id`, or the defaults when it has none yet. A corrupt file is moved aside.
    public func load(_ id: BrowserID) async throws -> Value {
        try await loadVersioned(id).value
    }

    /// The settings of `id` with their version and digest. Never waits for a write in progress.
    public func loadVersioned(_ id: BrowserID) async throws -> Versioned<Value> {
        let path = path(of: id)
        guard let status = try FileIO.status(path) else {
            cache.withLock { _ = $0.removeValue(for: id) }
            return defaults
        }
        guard status.isRegular else { return try await quarantine(id, seen: status, reason: "not a regular file") }
        if let entry = cache.withLock({ $0.value(for: id) }), entry.identity == status.identity {
            markRead(id, status)
            return entry.loaded
        }
        switch try readAndDecode(id) {
        case .missing:
            cache.withLock { _ = $0.removeValue(for: id) }
            return defaults
        case .bad(let reason):
            return try await quarantine(id, seen: status, reason: reason)
        case .loaded(let loaded, let read):
            cache.withLock { _ = $0.set(CacheEntry(loaded: loaded, identity: read.identity), for: id) }
            markRead(id, read)
            return loaded
        }
    }

    /// What reading a file found.
    private enum ReadOutcome {
        case missing
        /// Too large, not a regular file, or not decodable: to be moved aside.
        case bad(reason: String)
        case loaded(Versioned<Value>, FileStatus)
    }

    private func readAndDecode(_ id: BrowserID) throws -> ReadOutcome {
        let read: (bytes: [UInt8], status: FileStatus)?
        do {
            read = try FileIO.readIfExists(path(of: id), limit: Self.maxFileBytes)
        } catch {
            guard error.isMovedAside else { throw error }
            return .bad(reason: error.description)
        }
        guard let read else { return .missing }
        do {
            return .loaded(try decode(read.bytes, status: read.status), read.status)
        } catch {
            return .bad(reason: String(describing: error))
        }
    }

    /// Applies `change` to `id`'s settings and saves the result atomically; returns the saved value.
    ///
    /// A new browser at the cap makes room by evicting others (`SweepPlan`); it is never refused.
    @discardableResult
    public func update(_ id: BrowserID, _ change: @escaping @Sendable (inout Value) -> Void) async throws
        -> Versioned<Value>
    {
        try await onQueue { try self.readModifyWrite(id, change) }
    }

    // MARK: - On the queue

    private func readModifyWrite(_ id: BrowserID, _ change: (inout Value) -> Void) throws -> Versioned<Value> {
        let path = path(of: id)
        // Outside the stripe lock: eviction takes the locks of the files it deletes, one at a time.
        if counts.withLock({ $0.files >= maxFiles }), try FileIO.status(path) == nil {
            try makeRoom()
        }
        return try locks.withLock(stripe: id.stripe) {
            // Under the lock the file is read again, never taken from the cache: the cache may be a read behind,
            // and a read-modify-write must start from what is on disk (issue 11: no lost toggle across processes).
            var current = try readForUpdate(id)
            let nowNS = Self.nanoseconds(now())
            change(&current.value)
            let bytes = try Self.encode(current.value)
            if let previous = current.file, previous.bytes == bytes {
                // Nothing changed (a repeated "favourite"): no write, but it was a use.
                markRead(id, previous.status)
                return try decode(bytes, status: previous.status)
            }
            beforeWrite?()
            let times = FileUsage.forWrite(now: nowNS, replacing: current.file?.status.usage)
            try FileIO.writeAtomically(bytes, to: path, directory: directory.path, times: times)
            let loaded = Versioned(
                value: current.value, version: UInt64(times.modified), digest: SettingsDigest.of(bytes))
            // Under the lock nobody else can have replaced it yet, so this is the identity of what was written.
            if let written = try FileIO.status(path) {
                cache.withLock { _ = $0.set(CacheEntry(loaded: loaded, identity: written.identity), for: id) }
            }
            if current.file == nil {
                counts.withLock {
                    $0.files += 1
                    $0.created += 1
                }
                evictAheadIfNearTheCap()
            }
            return loaded
        }
    }

    /// `id`'s file as it is on disk, holding its stripe lock; a bad file is moved aside and reads as absent.
    private func readForUpdate(_ id: BrowserID) throws -> (value: Value, file: (bytes: [UInt8], status: FileStatus)?) {
        let read: (bytes: [UInt8], status: FileStatus)?
        do {
            read = try FileIO.readIfExists(path(of: id), limit: Self.maxFileBytes)
        } catch {
            guard error.isMovedAside else { throw error }
            // A symlink (never followed) or a directory: renaming moves the link or directory itself, never what a
            // link points to, so nothing outside the settings directory is touched.
            try moveAside(id, wasRegular: error.code == EFBIG, reason: error.description)
            return (defaultValue, nil)
        }
        guard let read else { return (defaultValue, nil) }
        do {
            return (try decode(read.bytes, status: read.status).value, read)
        } catch {
            try moveAside(id, wasRegular: true, reason: String(describing: error))
            return (defaultValue, nil)
        }
    }

    /// Moves a bad file aside unless someone replaced it since `seen`; the browser gets defaults.
    private func quarantine(_ id: BrowserID, seen: FileStatus, reason: String) async throws -> Versioned<Value> {
        try await onQueue {
            try self.locks.withLock(stripe: id.stripe) {
                guard let current = try FileIO.status(self.path(of: id)), current.identity == seen.identity else {
                    return
                }
                try self.moveAside(id, wasRegular: current.isRegular, reason: reason)
            }
        }
        cache.withLock { _ = $0.removeValue(for: id) }
        return defaults
    }

    /// Renames a corrupt file out of the way, so the browser gets defaults and the bad file stays for inspection.
    private func moveAside(_ id: BrowserID, wasRegular: Bool, reason: String) throws {
        let stamp = Self.timestampFormatter.string(from: Date())
        let destination = path(of: id) + ".corrupt-" + stamp
        try FileIO.move(path(of: id), to: destination, directory: directory.path)
        if wasRegular { counts.withLock { $0.files -= 1 } }
        logger.error(
            "corrupt settings file moved aside",
            ["settings.file": destination, "settings.reason": String(reason.prefix(200))])
    }

    // MARK: - Helpers

    /// Records a read in the file's atime when it is due (`FileUsage.needsReadMark`). A failed mark only makes the
    /// file look older than it is, so it is logged and the read goes on.
    func markRead(_ id: BrowserID, _ status: FileStatus) {
        let nowNS = Self.nanoseconds(now())
        guard status.usage.needsReadMark(now: nowNS, interval: Self.readMarkInterval) else { return }
        do {
            try FileIO.setAccessTime(path(of: id), to: status.usage.readMark(now: nowNS))
            // The mark changed the ctime; keep the cached copy valid if the file is still the one it came from.
            guard let marked = try FileIO.status(path(of: id)) else { return }
            cache.withLock { cache in
                guard var entry = cache.peek(id), entry.identity.inode == marked.identity.inode,
                    entry.identity.modified == marked.identity.modified, entry.identity.size == marked.identity.size
                else { return }
                entry.identity = marked.identity
                cache.set(entry, for: id)
            }
        } catch {
            logger.warning("settings read mark failed", ["error": error.description])
        }
    }

    func path(of id: BrowserID) -> String {
        // Safe to concatenate: a BrowserID is exactly 22 characters of [A-Za-z0-9_-], never `/` or `..`.
        directory.path + "/" + id.rawValue + ".json"
    }

    private func decode(_ bytes: [UInt8], status: FileStatus) throws -> Versioned<Value> {
        let value = try JSONDecoder().decode(Value.self, from: Data(bytes))
        // The digest is of the canonical encoding, so a hand-formatted file digests like the store's own.
        return Versioned(
            value: value, version: UInt64(clamping: status.usage.modified),
            digest: SettingsDigest.of(try Self.encode(value)))
    }

    static func encode(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }

    /// Nanoseconds since 1970 of a clock reading.
    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded())
    }

    func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    private static var timestampFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter
    }
}
