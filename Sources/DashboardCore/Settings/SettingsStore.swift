import Dispatch
import Foundation
import Logging
import Synchronization
import Timing

/// Per-browser settings, one JSON file per browser: `<directory>/<id>.json`, with a bounded in-memory cache in front.
///
/// - The file is the truth. Writes go through to it atomically (`FileIO.writeAtomically`: temp file, fsync, rename,
///   fsync of the directory) and then into the cache.
/// - Reads never queue behind writes (issue 8 measured page loads going from 1.6 to 16.3 ms when reads waited on the
///   writers' queue), and a warm read makes no system call at all (issue 18: reads run on the event loops): a copy
///   checked against its file less than `recheckInterval` ago (1 s) is answered from memory. Past that the read
///   `lstat`s the file, answers from the cache when the file is the one the cache copied, and otherwise reads the
///   file itself, on the caller's thread; so file-system calls on a loop are at most one per browser per interval.
///   Atomic renames mean it sees the old or the new file, never half of one. The check is what lets several
///   processes share the directory (issue 11): a write by another one changes the inode and the mtime, and a read
///   here reloads it within `recheckInterval`; this process's own writes show at once.
/// - Read-modify-write runs on one serial queue per store (blocking fsyncs stay off Swift's cooperative pool) and
///   holds the id's `StripeLocks` flock, so two toggles in two processes never lose one.
/// - A corrupt file, or anything at `<id>.json` that is not a regular file (a symlink is never followed), is moved
///   aside to `<id>.json.corrupt-<timestamp>`, logged, and replaced by defaults.
/// - Files unused for `maxAge` expire, and at `maxFiles` the least valuable files are evicted (`SweepPlan`), so a new
///   browser is never refused for lack of room (`SettingsStore+Sweep.swift`).
///
/// Generic over the stored value so the store does not depend on the view-model layer's `Settings` type.
final class SettingsStore<Value: Codable & Sendable>: Sendable {
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

    /// A read refreshes a file's read mark at most this often (`FileUsage.readMarkInterval`).
    static var readMarkInterval: Int64 { FileUsage.readMarkInterval }

    let logger: Logger
    /// Usage times and expiry read its wall clock (`date`), unlike the rest of the dashboard's deadlines: they live in
    /// the files' own mtime and atime (`FileUsage`), which the kernel keeps on the wall clock, which other processes
    /// sharing the directory read, and which outlive a restart. The recheck interval is on its monotonic `now`.
    let clock: any TimeSource
    /// How long a cached copy is trusted without looking at its file (the staleness bound across processes).
    let recheckInterval: Duration
    /// Runs every read-modify-write and every deletion; never a plain read.
    let queue = DispatchQueue(label: "settings-store")
    /// Runs the directory scans of evictions ahead of the cap (`evictAheadIfNearTheCap`).
    let sweepQueue = DispatchQueue(label: "settings-evict-ahead", qos: .utility)
    let locks: StripeLocks
    let cache: Mutex<LRUCache<BrowserID, CacheEntry>>
    let counts = Mutex(Counts())
    /// `copyChanges`' count.
    let changedCopies = CopyChangeCount()
    /// Called on the queue just before a file is written (tests slow the writer down with it).
    let beforeWrite: (@Sendable () -> Void)?
    /// What a browser without a file reads: `defaultValue`, version 0, and the digest of its encoding.
    public let defaults: Versioned<Value>

    /// A cached copy of a file and which file it was copied from.
    /// The cache's byte budget (`SettingsCodec.cacheBudgetBytes`, the same for both backends).
    static var cacheBudgetBytes: Int { SettingsCodec.cacheBudgetBytes }

    /// What an entry counts against the budget: its file's bytes (the decoded value is about as large) and the
    /// entry's own bookkeeping.
    static func cost(_ identity: FileStatus.Identity) -> Int { Int(clamping: identity.size) * 2 + 160 }

    /// The cache's bytes now (for `/metrics`).
    public var cacheBytes: Int { cache.withLock { $0.bytes } }

    public var copyChanges: UInt64 { changedCopies.value }

    /// Called after the cache took, replaced or dropped a copy (`copyChanges`).
    func copyChanged() { changedCopies.counted() }

    /// Drops `id`'s copy, if any, and counts that.
    func dropCopy(_ id: BrowserID) {
        if cache.withLock({ $0.removeValue(for: id) }) != nil { copyChanged() }
    }

    struct CacheEntry: Sendable {
        var loaded: Versioned<Value>
        var identity: FileStatus.Identity
        /// The file's times when last seen: a read from memory still marks the file read when due (`markRead`,
        /// at most hourly), so eviction's "least recently used" stays true.
        var usage: FileUsage
        /// When the file was last seen to be the one copied (monotonic).
        var checkedAt: ContinuousClock.Instant
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
    /// cap) and counts the settings files. `clock` times usage, expiry and the recheck interval.
    public convenience init(
        directory: URL, maxFiles: Int = 100_000, maxAge: TimeInterval = 400 * 86_400, cacheCapacity: Int = SettingsCodec.cacheCapacity,
        defaultValue: Value, logger: Logger, clock: any TimeSource = SystemTimeSource(),
        recheckInterval: Duration = .seconds(1)
    ) throws {
        try self.init(
            directory: directory, maxFiles: maxFiles, maxAge: maxAge, cacheCapacity: cacheCapacity,
            defaultValue: defaultValue, logger: logger, clock: clock, recheckInterval: recheckInterval,
            beforeWrite: nil)
    }

    /// The full initializer; `beforeWrite` is for tests.
    init(
        directory: URL, maxFiles: Int, maxAge: TimeInterval, cacheCapacity: Int, defaultValue: Value, logger: Logger,
        clock: any TimeSource, recheckInterval: Duration, beforeWrite: (@Sendable () -> Void)?
    ) throws {
        self.directory = directory.standardizedFileURL
        self.maxFiles = max(1, maxFiles)
        self.maxAge = maxAge
        self.defaultValue = defaultValue
        self.logger = logger
        self.clock = clock
        self.recheckInterval = recheckInterval
        self.beforeWrite = beforeWrite
        self.cache = Mutex(LRUCache(capacity: cacheCapacity, budgetBytes: Self.cacheBudgetBytes))
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
        let now = clock.now
        if let loaded = loadedAtOnce(id) { return loaded }
        let path = path(of: id)
        guard let status = try FileIO.status(path) else {
            dropCopy(id)
            return defaults
        }
        guard status.isRegular else { return try await quarantine(id, seen: status, reason: "not a regular file") }
        if let entry = cache.withLock({ $0.peek(id) }), entry.identity == status.identity {
            let checked = CacheEntry(
                loaded: entry.loaded, identity: entry.identity, usage: status.usage, checkedAt: now)
            cache.withLock { _ = $0.set(checked, for: id) }
            markRead(id, status)
            return entry.loaded
        }
        switch try readAndDecode(id) {
        case .missing:
            dropCopy(id)
            return defaults
        case .bad(let reason):
            return try await quarantine(id, seen: status, reason: reason)
        case .loaded(let loaded, let read):
            let entry = CacheEntry(loaded: loaded, identity: read.identity, usage: read.usage, checkedAt: now)
            cache.withLock { _ = $0.set(entry, for: id, cost: Self.cost(read.identity)) }
            copyChanged()
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
}
