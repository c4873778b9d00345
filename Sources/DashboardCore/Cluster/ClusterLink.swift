import Foundation
import Logging
import Postgres
import Synchronization

/// The snapshot store's and the history's link to the cluster's PostgreSQL (issue 19 points 4 and 5): it reads what
/// the leader stored (a follower's refresh, a notification) and stores what the leader fetched. Decisions are
/// `SnapshotState`'s and `RefresherRole`'s; this class runs the statements (`ClusterSchema`).
///
/// Writes never hold up a refresh or a request: `share` and `storeHistory` only queue, and one task writes the latest
/// of each, one at a time, so a slow database costs at most one write in flight and the newest value, never a queue.
/// A write that fails is logged and dropped: the next version is written whole, and a leader that lost its session
/// stores its status again when it leads again (`SnapshotState.mustShare`).
///
/// Every write carries the epoch of the leadership that queued it (issue 49 point 3, `lead(epoch:)`), and the
/// database refuses one whose epoch is no longer the leader's: a dashboard cut off long enough to lose its lock, then
/// heard again, cannot replace what the new leader stored. A refusal is logged once, drops what this leadership had
/// queued and tells the refresher (`onDeposed`), which steps down.
final class ClusterLink: SnapshotSharing {
    private struct Pending {
        typealias QueuedSnapshot = (row: SharedSnapshot, epoch: Int64)
        typealias QueuedHistory = (bytes: [UInt8], slot: Int, epoch: Int64)
        var snapshot: QueuedSnapshot?
        var history: QueuedHistory?
        var writing = false
        /// The slot of the stored history shown here (adopted, or written as the leader), so a read skips the document
        /// when it is that one; nil while this dashboard shows a record of its own.
        var heldSlot: Int?
        var failuresLogged = 0
        /// This dashboard's leadership epoch, nil when it does not lead (nothing is queued then).
        var epoch: Int64?
        /// The last epoch refused, so a refusal is logged once.
        var refused: Int64?
        /// What a refusal of the current leadership calls (`onDeposed`).
        var deposed: (@Sendable () -> Void)?
    }

    private let pool: PostgresPool
    /// The upstream's identity: a document from another one is refused.
    let upstream: String
    private let activeUserID: String
    private let logger: Logger
    private let pending = Mutex(Pending())
    /// Where adopted history goes; set once, before the refresher starts.
    private let history: ActivityHistory
    /// The store notifications publish to.
    private let store: SnapshotStore

    /// A link over `pool` for `store` and `history`.
    init(pool: PostgresPool, store: SnapshotStore, history: ActivityHistory, upstream: String, logger: Logger) {
        self.pool = pool
        self.store = store
        self.history = history
        self.upstream = upstream
        activeUserID = store.configuration.activeUserID
        self.logger = logger
    }

    // MARK: - Reading

    /// A follower's refresh (`SnapshotSharing`).
    func follow(shown: UInt64?, watched: Bool) async throws -> (snapshot: Snapshot?, status: SharedSnapshot.Status)? {
        try await read(shown: shown, demand: watched ? "watch" : "refresh")
    }

    /// A notification (or a follower that just connected): read what is stored and publish it when it is new.
    func loadAndPublish() async throws {
        guard let (snapshot, status) = try await read(shown: store.shownVersion, demand: nil) else { return }
        store.published(snapshot, status: status)
    }

    /// Reads the stored snapshot (the document only when its version is not `shown`) and adopts a newer stored
    /// history; nil when nothing is stored yet.
    private func read(shown: UInt64?, demand: String?) async throws -> (
        snapshot: Snapshot?, status: SharedSnapshot.Status
    )? {
        let held = pending.withLock { $0.heldSlot }
        let result = try await pool.run(ClusterSchema.read(shown: shown, slot: held, demand: demand))
        adoptHistory(result, held: held)
        guard let versionText = result.value("version"), let version = Int64(versionText),
            let fetchedText = result.value("fetched_at_ms"), let fetched = Int64(fetchedText)
        else { return nil }
        let status = SharedSnapshot.Status(
            stale: result.value("stale") == "t", fetchedAt: SharedSnapshot.Status.milliseconds(fetched))
        guard let document = result.value("document") else { return (nil, status) }
        let row = SharedSnapshot(
            version: SharedSnapshot.version(column: version), status: status, document: Array(document.utf8))
        do {
            return (try row.snapshot(upstream: upstream, activeUserID: activeUserID), status)
        } catch {
            logger.warning("stored snapshot not shown: \(error)", ["version": SnapshotFile.hex(row.version)])
            throw error
        }
    }

    private func adoptHistory(_ result: QueryResult, held: Int?) {
        guard let slotText = result.value("slot"), let slot = Int(slotText), slot != held,
            let encoded = result.value("history"), let bytes = Data(base64Encoded: encoded)
        else { return }
        do {
            let record = try HistoryFileFormat.decode(Array(bytes), upstream: upstream)
            history.adopt(record)
            pending.withLock { $0.heldSlot = slot }
        } catch {
            logger.warning("stored history not used: \(error)", ["slot": slotText])
        }
    }

    // MARK: - Writing

    /// The leader's (`SnapshotSharing`): queued.
    func share(_ snapshot: Snapshot, status: SharedSnapshot.Status) {
        do {
            let row = try SharedSnapshot(snapshot: snapshot, status: status, upstream: upstream)
            enqueue { pending in pending.snapshot = pending.epoch.map { (row, $0) } }
        } catch {
            logger.warning("snapshot not stored: \(error)")
        }
    }

    /// The leader's history of `slot` (`ClusterHistoryStore`): queued.
    func storeHistory(_ record: HistoryRecord) {
        guard let slot = record.history.fine.latestSlot else { return }
        let bytes = HistoryFileFormat.encode(record, upstream: upstream)
        enqueue { pending in
            pending.history = pending.epoch.map { (bytes, slot, $0) }
            // A record made while not leading (standalone, cut off from the database) is this dashboard's own, not
            // the stored one: nothing is held, so the next read adopts what is stored even when it is of the same
            // slot. Holding it kept the dashboard on its own line until the leader's next slot, up to 10 s after a
            // heal (issue 49's fault test: 3.3-4.4 s to converge).
            pending.heldSlot = pending.epoch == nil ? nil : slot
        }
    }

    // MARK: - Fencing

    /// The epoch of this dashboard's leadership, nil when it does not lead.
    var epoch: Int64? { pending.withLock { $0.epoch } }

    /// The refresher took the lock with `epoch`: what is queued from now on carries it.
    func lead(epoch: Int64) { pending.withLock { $0.epoch = epoch } }

    /// The refresher took the lead and the store knows it: the history as it stands is stored (and shown) now. It was
    /// stored once per slot, so a leader whose record of this slot was made alone (standalone, cut off) stored nothing
    /// until the next slot, and the followers drew the line it had adopted, not its own, for up to 10 s after a heal.
    func tookTheLead() { history.flush() }

    /// The refresher stepped down: nothing more is queued, and what was is dropped.
    func stepDown() {
        pending.withLock { pending in
            pending.epoch = nil
            pending.snapshot = nil
            pending.history = nil
        }
    }

    /// Sets what a refused write of the current leadership calls (the refresher's step-down); once, before it starts.
    func onDeposed(_ handler: @escaping @Sendable () -> Void) { pending.withLock { $0.deposed = handler } }

    /// The database refused a write of `epoch` (`leader` holds the current one): logged once; when `epoch` is still
    /// this dashboard's, it stops writing and the refresher is told.
    private func refused(epoch: Int64, leader: String) {
        let (first, handler) = pending.withLock { pending -> (Bool, (@Sendable () -> Void)?) in
            let first = pending.refused != epoch
            pending.refused = epoch
            guard pending.epoch == epoch else { return (first, nil) }
            pending.epoch = nil
            pending.snapshot = nil
            pending.history = nil
            return (first, pending.deposed)
        }
        if first {
            logger.warning(
                "a newer leader holds the cluster: write refused, stepping down",
                ["epoch": String(epoch), "leader.epoch": leader])
        }
        handler?()
    }

    /// Runs a fenced write of `epoch`; false when the database refused it for a newer leader's epoch.
    private func write(_ statement: Statement, epoch: Int64) async throws -> Bool {
        let result = try await pool.run(statement)
        let leader = result.value("leader") ?? "none"
        guard leader == String(epoch) else {
            refused(epoch: epoch, leader: leader)
            return false
        }
        return true
    }

    /// Whether nothing is queued or being written (every write queued so far was tried).
    var isIdle: Bool { pending.withLock { !$0.writing && $0.snapshot == nil && $0.history == nil } }

    /// A follower's change (`SnapshotSharing`): asks the leader to refresh now, off the caller's path.
    func askForRefresh() {
        Task { [pool] in _ = try? await pool.run(ClusterSchema.demand("refresh")) }
    }

    private func enqueue(_ change: (inout Pending) -> Void) {
        let start = pending.withLock { pending -> Bool in
            change(&pending)
            guard !pending.writing else { return false }
            pending.writing = true
            return true
        }
        if start { Task { await self.writeAll() } }
    }

    /// Writes what is queued, the latest of each, until nothing is.
    private func writeAll() async {
        while true {
            let next = pending.withLock { pending -> (Pending.QueuedSnapshot?, Pending.QueuedHistory?)? in
                guard pending.snapshot != nil || pending.history != nil else {
                    pending.writing = false
                    return nil
                }
                defer {
                    pending.snapshot = nil
                    pending.history = nil
                }
                return (pending.snapshot, pending.history)
            }
            guard let (snapshot, history) = next else { return }
            // Only the leader writes: a dashboard that stepped down meanwhile drops what it had queued.
            guard store.role == .leader else { continue }
            do {
                if let snapshot,
                    try await !write(ClusterSchema.store(snapshot.row, epoch: snapshot.epoch), epoch: snapshot.epoch)
                {
                    continue
                }
                if let history {
                    let statement = ClusterSchema.store(
                        history: history.bytes, slot: history.slot, epoch: history.epoch)
                    _ = try await write(statement, epoch: history.epoch)
                }
                pending.withLock { $0.failuresLogged = 0 }
            } catch {
                let first = pending.withLock { pending -> Bool in
                    pending.failuresLogged += 1
                    return pending.failuresLogged == 1
                }
                if first { logger.warning("could not store for the cluster", ["error": "\(error)"]) }
            }
        }
    }
}
