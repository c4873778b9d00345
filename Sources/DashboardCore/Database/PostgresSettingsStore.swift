import Foundation
import Logging
import Postgres
import Synchronization
import Timing

/// Per-browser settings in PostgreSQL (`--database`, issue 19): one `browser_settings` row per browser holding the
/// same JSON document as a settings file, its version and its usage (migration 1), shared by every dashboard.
///
/// - Reads come from memory: a browser's copy stays valid until a notification (`habits_settings`, payload
///   `<id> <version>`) says another dashboard changed it, so a warm page makes no database call. After the listener
///   connects or reconnects, every copy is dropped, and before its first session nothing is kept: a copy made
///   before the `LISTEN` (pages are served while the listener's first session opens) would not hear of a change
///   through another dashboard. A browser not in memory is read
///   once from the database, with a short deadline; while the database is known to be down (the listener's
///   last word was a lost session) or that read fails, the page gets the defaults at once and nothing is cached:
///   pages never wait on an unreachable database.
/// - A change is one transaction: the browser's row is locked (`pg_advisory_xact_lock` on its id, which also covers
///   a browser with no row yet), the change is applied to the row as it is now (never to a copy in memory), the row
///   written with the version raised by one, and the notification sent, all committed before `update` returns (the
///   303 follows). A concurrent change through another dashboard waits for the lock and applies on top, so none is
///   lost. Any database failure becomes `SettingsUnavailable` (503, nothing saved; or, when the commit went
///   unanswered, saying it may have been).
/// - Expiry and the cap mean what they mean for files (`FileUsage`, `SweepPlan`'s order), swept in SQL.
final class PostgresSettingsStore<Value: Codable & Sendable & Equatable>: SettingsBackend {
    /// The notification channel.
    public static var channel: String { "habits_settings" }

    public let defaultValue: Value
    public let defaults: Versioned<Value>
    /// The most rows kept (`--max-settings-files`).
    public let maxRows: Int
    /// How long unused settings are kept, in seconds (`--settings-max-age`).
    public let maxAge: TimeInterval
    let pool: PostgresPool
    let listener: PostgresListener
    let logger: Logger
    let clock: any TimeSource
    /// How long a page may wait for a browser's first read (the database may be hung without our knowing yet).
    let readTimeout: Duration
    let state: Mutex<State>
    let watcher = Mutex<Task<Void, Never>?>(nil)
    /// What `onChangeElsewhere` was given: called after a notification dropped a copy held here, or a (re)connection
    /// dropped them all.
    let changedElsewhere = Mutex<(@Sendable () -> Void)?>(nil)
    /// Signs the digests notifications carry instead of browser ids (issue 48 point 4).
    let signers: CookieSignerSlot
    /// Most digests remembered before every copy is dropped and they start again (`State+Digests`).
    let digestLimit: Int
    /// `copyChanges`' count.
    let changedCopies = CopyChangeCount()

    struct Entry: Sendable {
        var loaded: Versioned<Value>
        var usage: FileUsage
    }

    struct State {
        var cache: LRUCache<BrowserID, Entry>
        /// Which reads in flight may keep their answer (notifications and reconnections overtake them).
        var admission = SettingsReadAdmission()
        /// Rows, as last counted (by a sweep) plus those inserted since.
        var rows = 0
        var readFailures = 0
        /// The listener last reported a lost session: reads of browsers not in memory do not even try.
        var down = false
        /// The channel is listened on now (`.connected` or `.reconnected`, until `.lost`).
        var listening = false
        /// The ids notifications name by their digest (`State+Digests`).
        var digests: [String: BrowserID] = [:]

        /// Whether a copy may be kept: while changes are heard, or while the database is away (then only a change
        /// saved meanwhile makes one, and pages show it; every copy is dropped when the listener is back). Before
        /// the first session, pages read through.
        var keepsCopies: Bool { listening || down }
    }

    /// A store over `pool`, invalidated through `listener` (which the caller starts); `signers` is the cluster's
    /// (`DashboardDatabase.signers`), whose key digests the ids in notifications.
    public init(
        pool: PostgresPool, listener: PostgresListener, signers: CookieSignerSlot, defaultValue: Value,
        maxRows: Int = 100_000,
        maxAge: TimeInterval = 400 * 86_400, cacheCapacity: Int = SettingsCodec.cacheCapacity, logger: Logger,
        clock: any TimeSource = SystemTimeSource(), readTimeout: Duration = .milliseconds(500)
    ) throws {
        self.pool = pool
        self.listener = listener
        self.signers = signers
        self.digestLimit = 2 * cacheCapacity + 1024
        self.defaultValue = defaultValue
        self.maxRows = max(1, maxRows)
        self.maxAge = maxAge
        self.logger = logger
        self.clock = clock
        self.readTimeout = readTimeout
        let bytes = try SettingsCodec.encode(defaultValue)
        defaults = Versioned(value: defaultValue, version: 0, digest: SettingsDigest.of(bytes))
        state = Mutex(
            State(cache: LRUCache(capacity: cacheCapacity, budgetBytes: SettingsCodec.cacheBudgetBytes)))
        let task = watchNotifications()
        watcher.withLock { $0 = task }
    }

    /// Calls `action` after another dashboard changed settings held here (`SettingsBackend.onChangeElsewhere`).
    public func onChangeElsewhere(_ action: @escaping @Sendable () -> Void) {
        changedElsewhere.withLock { $0 = action }
    }

    /// Stops following notifications (at shutdown, and in tests).
    public func close() { watcher.withLock { $0 }?.cancel() }

    public var cacheBytes: Int { state.withLock { $0.cache.bytes } }

    public var copyChanges: UInt64 { changedCopies.value }

    /// Called after the copies changed (`copyChanges`).
    func copyChanged() { changedCopies.counted() }

    /// Whether notifications are heard now, so copies are kept.
    public var isListening: Bool { state.withLock { $0.listening } }

    public func fileCount() async -> Int { state.withLock { $0.rows } }

    /// Reads that fell back to the defaults because the database did not answer (for `/metrics`).
    public var readFailures: Int { state.withLock { $0.readFailures } }

    public func loadedAtOnce(_ id: BrowserID) -> Versioned<Value>? {
        guard let cached = state.withLock({ $0.cache.value(for: id) }) else { return nil }
        markReadIfDue(id, cached)
        return cached.loaded
    }

    public func loadVersioned(_ id: BrowserID) async throws -> Versioned<Value> {
        if let loaded = loadedAtOnce(id) { return loaded }
        let digest = signers.current?.notificationDigest(of: id)
        let begun = state.withLock { state in state.down ? nil : state.begin(id, digest: digest, limit: digestLimit) }
        guard let (ticket, flushed) = begun else { return defaults }
        if flushed { copyChanged() }
        let row: Row?
        do {
            row = try await fetch(id, deadline: clock.now + readTimeout)
        } catch {
            state.withLock { state in
                state.readFailures += 1
                _ = state.admission.end(ticket, version: 0)
            }
            return defaults
        }
        let entry = row.map { Entry(loaded: $0.loaded, usage: $0.usage) }
        let kept = state.withLock { state in
            guard state.admission.end(ticket, version: row?.loaded.version ?? 0), state.keepsCopies else {
                return false
            }
            let cost = 2 * (row?.bytes ?? 0) + 160
            let kept = entry ?? Entry(loaded: defaults, usage: FileUsage(modified: 0, accessed: 1))
            _ = state.cache.set(kept, for: id, cost: cost)
            return true
        }
        if kept { copyChanged() }
        if let entry { markReadIfDue(id, entry) }
        return entry?.loaded ?? defaults
    }

    @discardableResult
    public func update(
        _ id: BrowserID, _ change: @escaping @Sendable (inout Value) -> Void
    ) async throws -> Versioned<Value> {
        let written: (Versioned<Value>, FileUsage, inserted: Bool)
        // A ticket, as for a read: a newer version announced before the copy is stored (another dashboard's change
        // right after this one, heard first) or a reconnection meanwhile means the copy is not kept.
        guard let signer = signers.current else { throw SettingsUnavailable(reason: "no cookie secret yet") }
        let digest = signer.notificationDigest(of: id)
        let (ticket, flushed) = state.withLock { $0.begin(id, digest: digest, limit: digestLimit) }
        if flushed { copyChanged() }
        do {
            written = try await pool.transaction(idempotent: false) { transaction in
                try await self.applyLocked(id, digest: digest, change, in: transaction)
            }
        } catch {
            state.withLock { _ = $0.admission.end(ticket, version: 0) }
            if let error = error as? CommitOutcomeUnknown {
                logger.warning("settings change unconfirmed", ["error": error.description])
                throw SettingsUnavailable(reason: error.description, unconfirmed: true)
            }
            guard let error = error as? PostgresError else { throw error }
            logger.warning("settings change not saved", ["error": error.description])
            throw SettingsUnavailable(reason: error.description)
        }
        state.withLock { state in
            if state.admission.end(ticket, version: written.0.version), state.keepsCopies {
                _ = state.cache.set(Entry(loaded: written.0, usage: written.1), for: id)
            } else {
                _ = state.cache.removeValue(for: id)
            }
            if written.inserted { state.rows += 1 }
        }
        copyChanged()
        if written.inserted { sweepIfOverTheCap() }
        return written.0
    }

    // MARK: - In the transaction

    private func applyLocked(
        _ id: BrowserID, digest: String, _ change: (inout Value) -> Void, in transaction: Transaction
    ) async throws -> (Versioned<Value>, FileUsage, inserted: Bool) {
        _ = try await transaction.run(
            Statement("SELECT pg_advisory_xact_lock(1, hashtext($1))", [id.rawValue], idempotent: true))
        let current = try await fetch(id, in: transaction)
        var value = current?.loaded.value ?? defaultValue
        change(&value)
        let bytes = try SettingsCodec.encode(value)
        if let current, try SettingsCodec.encode(current.loaded.value) == bytes {
            return (current.loaded, current.usage, false)  // nothing changed: no write, no notification
        }
        if current == nil, value == defaultValue { return (defaults, FileUsage(modified: 0, accessed: 1), false) }
        let usage = FileUsage.forWrite(
            now: FileUsage.nanoseconds(clock.date), replacing: current?.usage)
        let document = String(decoding: bytes, as: UTF8.self)
        let version = (current?.loaded.version ?? 0) + 1
        let parameters = [id.rawValue, document, String(version), String(usage.modified), String(usage.accessed)]
        if current == nil {
            _ = try await transaction.run(
                Statement(
                    "INSERT INTO browser_settings (browser_id, document, version, modified_ns, accessed_ns) "
                        + "VALUES ($1, $2, $3, $4, $5)", parameters, idempotent: false))
        } else {
            _ = try await transaction.run(
                Statement(
                    "UPDATE browser_settings SET document = $2, version = $3, modified_ns = $4, accessed_ns = $5 "
                        + "WHERE browser_id = $1", parameters, idempotent: false))
        }
        // Sent at commit, to every listening dashboard (this one included, which finds its copy current).
        _ = try await transaction.run(
            Statement(
                "SELECT pg_notify($1, $2)", [Self.channel, "\(digest) \(version)"], idempotent: false))
        let loaded = Versioned(value: value, version: version, digest: SettingsDigest.of(bytes))
        return (loaded, usage, current == nil)
    }

    // MARK: - Rows

    struct Row {
        var loaded: Versioned<Value>
        var usage: FileUsage
        var bytes: Int
    }

    private static var selectRow: String {
        "SELECT document, version, modified_ns, accessed_ns FROM browser_settings WHERE browser_id = $1"
    }

    private func fetch(_ id: BrowserID, deadline: ContinuousClock.Instant) async throws -> Row? {
        try decodeRow(
            try await pool.run(Statement(Self.selectRow, [id.rawValue], idempotent: true), deadline: deadline), id)
    }

    private func fetch(_ id: BrowserID, in transaction: Transaction) async throws -> Row? {
        try decodeRow(try await transaction.run(Statement(Self.selectRow, [id.rawValue], idempotent: true)), id)
    }

    /// A row as settings; a document that does not decode (edited by hand, say) reads as the defaults, logged, and
    /// the next change replaces it, as a corrupt file is moved aside.
    private func decodeRow(_ result: QueryResult, _ id: BrowserID) throws -> Row? {
        guard let document = result.value("document"), let version = result.value("version").flatMap(UInt64.init),
            let modified = result.value("modified_ns").flatMap(Int64.init),
            let accessed = result.value("accessed_ns").flatMap(Int64.init)
        else { return nil }
        let usage = FileUsage(modified: modified, accessed: accessed)
        do {
            let value = try JSONDecoder().decode(Value.self, from: Data(document.utf8))
            let digest = SettingsDigest.of(try SettingsCodec.encode(value))
            return Row(
                loaded: Versioned(value: value, version: version, digest: digest), usage: usage,
                bytes: document.utf8.count)
        } catch {
            logger.error("unreadable settings row; the browser gets defaults", ["settings.id": id.rawValue])
            return Row(
                loaded: Versioned(value: defaultValue, version: version, digest: defaults.digest), usage: usage,
                bytes: 0)
        }
    }
}
