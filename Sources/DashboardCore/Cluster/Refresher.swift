import Logging
import Postgres
import Synchronization
import Timing

/// Carries out `RefresherRole` (issue 19 point 4): a session of its own that holds the refresher lock, and the
/// cluster's notifications. The role's changes go to the snapshot store, which then fetches and stores (leader),
/// reads what is stored (follower) or fetches for itself (standalone).
///
/// Two tasks: the lock loop (connect, try the lock every 0.5 s or check the session, each bounded by the connection's
/// deadline, so a hung database makes a leader step down within about a second), and the notifications from the
/// process's `PostgresListener` (a new snapshot or history: a follower reads it; a follower's demand: the leader
/// refreshes). A follower that joins, or whose listener reconnected (notifications may be lost), reads what is stored
/// first; before it may lead, it has adopted the stored history, so it never writes back a shorter one. Taking the lock
/// takes a new fencing epoch (issue 49 point 3), handed to the link before the store hears it leads; a write the
/// database refused for a newer epoch makes the leader step down at its next check, as a failed check does.
final class Refresher: Sendable {
    /// The state both tasks read: the role as decided, and the tasks.
    private struct Locked {
        var role: RefresherRole
        var tasks: [Task<Void, Never>] = []
        /// The database refused a write of this leadership (`ClusterLink.onDeposed`): step down at the next check.
        var deposed = false
    }

    private let url: DatabaseURL
    private let link: ClusterLink
    private let store: SnapshotStore
    private let listener: PostgresListener
    private let clock: any TimeSource
    private let logger: Logger
    /// A statement on the lock session must answer within this, or the session counts as lost.
    private let statementTimeout: Duration
    private let locked: Mutex<Locked>

    /// A refresher for `store`; nothing happens before `start`.
    init(
        url: DatabaseURL, link: ClusterLink, store: SnapshotStore, listener: PostgresListener,
        statementTimeout: Duration = .seconds(1), clock: any TimeSource, logger: Logger
    ) {
        self.url = url
        self.link = link
        self.store = store
        self.listener = listener
        self.statementTimeout = statementTimeout
        self.clock = clock
        self.logger = logger
        locked = Mutex(Locked(role: RefresherRole(now: clock.now)))
        link.onDeposed { [weak self] in self?.locked.withLock { $0.deposed = true } }
    }

    /// The part played now.
    var role: RefresherRole.Role { locked.withLock { $0.role.role } }

    /// Times this dashboard became the leader.
    var takeovers: Int { locked.withLock { $0.role.takeovers } }

    /// Starts both tasks.
    func start() {
        let events = listener.subscribe(
            channels: [ClusterSchema.snapshotChannel, ClusterSchema.historyChannel, ClusterSchema.demandChannel])
        listener.start()
        let lockLoop = Task { await self.runLockLoop() }
        let notifications = Task { await self.consume(events) }
        locked.withLock { $0.tasks = [lockLoop, notifications] }
    }

    /// Stops both tasks (the lock goes with the session, which the loop closes; the listener is the database's).
    func stop() {
        for task in locked.withLock({ $0.tasks }) { task.cancel() }
    }

    // MARK: - The lock session

    /// Opens the lock session and holds it, again after each failure with the role's back-off (`RetryLoop`).
    private func runLockLoop() async {
        let backoff = locked.withLock { $0.role.policy.reconnect }
        await RetryLoop.run(backoff: backoff, clock: clock) { connected in
            do {
                let session = try await PostgresConnection.connect(
                    to: url, deadline: clock.now + statementTimeout * 2, clock: clock)
                defer { session.close() }
                // PostgreSQL ends the session (and the lock) itself when a partition silences this dashboard.
                _ = try await session.run(SessionTimeouts.statement(), deadline: clock.now + statementTimeout)
                let actions = apply { $0.connected(now: clock.now) }
                connected()
                // Read before the lock is asked for, so a new leader continues the stored history.
                if actions.contains(.loadRow) { try await link.loadAndPublish() }
                try await holdLock(on: session)
                return .again
            } catch {
                apply { $0.failed(now: clock.now) }
                throw error
            }
        }
    }

    /// Asks for the lock (a follower) or checks the session (the leader) whenever the role says, until a step fails
    /// (it throws) or the task is cancelled.
    private func holdLock(on session: PostgresConnection) async throws {
        while !Task.isCancelled {
            let now = clock.now
            let step = locked.withLock { $0.role.due(now: now) }
            guard let step else {
                await clock.sleep(until: locked.withLock { $0.role.nextStep })
                continue
            }
            // A leader a newer one fenced off (issue 49 point 3) steps down as one whose session failed: it cannot
            // hold the lock any more, whatever its session says.
            if step == .check && locked.withLock({ $0.deposed }) { throw PostgresError.connectionLost("deposed") }
            let statement = step == .check ? ClusterSchema.check : ClusterSchema.tryLock
            let result = try await session.run(statement, deadline: clock.now + statementTimeout)
            if step == .check {
                locked.withLock { $0.role.checked(now: clock.now) }
                continue
            }
            let held = result.value("held") == "t"
            if held {
                // The new epoch goes to the link before the store hears it leads and starts writing.
                // No epoch (the row deleted by hand): fail, so the session closes and lets the lock go.
                guard let epoch = result.value("epoch").flatMap({ Int64($0) }) else {
                    throw PostgresError.server(sqlState: "P0002", message: "no cluster_leader row")
                }
                locked.withLock { $0.deposed = false }
                link.lead(epoch: epoch)
            }
            if apply({ $0.lockAnswered(acquired: held, now: clock.now) }).contains(.startRefreshing) {
                link.tookTheLead()
            }
        }
    }

    /// Runs `event` on the role, logs a change of part and tells the store; returns the actions left to the loop.
    @discardableResult
    private func apply(_ event: (inout RefresherRole) -> [RefresherRole.Action]) -> [RefresherRole.Action] {
        let (before, actions, after) = locked.withLock { locked in
            let before = locked.role.role
            let actions = event(&locked.role)
            return (before, actions, locked.role.role)
        }
        if before != after {
            if before == .leader { link.stepDown() }
            logger.notice("cluster role", ["role.from": before.rawValue, "role.to": after.rawValue])
            store.roleChanged(to: after)
        }
        return actions
    }

    // MARK: - Notifications

    private func consume(_ events: AsyncStream<PostgresListener.Event>) async {
        for await event in events {
            switch event {
            case .notification(let note) where note.channel == ClusterSchema.demandChannel:
                if role == .leader { store.demandReceived(watching: note.payload == "watch") }
            case .notification, .connected, .reconnected:
                guard role == .follower else { continue }
                do { try await link.loadAndPublish() } catch {
                    logger.debug("stored snapshot not read", ["error": "\(error)"])
                }
            case .lost:
                break
            }
        }
    }
}
