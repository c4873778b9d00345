import Synchronization
import Timing

/// A few sessions to one database, shared by every request (`PoolState` decides, this class acts). Every call has a
/// deadline (`timeout` from when it is made, unless the caller gives one), covering the wait for a connection, its
/// opening and the statement; a connection that breaks or passes a deadline is dropped and reopened on demand, the
/// attempts spaced by `Backoff`. A statement whose connection broke under it is run again on a fresh one only when
/// it says it is idempotent; one that never left (the idle connection was found dead first) always is.
public final class PostgresPool: Sendable {
    /// How the pool behaves.
    public struct Configuration: Sendable {
        /// Connections at most (a small number: the dashboards' statements are short).
        public var size = 4
        /// The deadline of a call, from when it is made.
        public var timeout: Duration = .seconds(3)
        /// Spacing of connection attempts after failures.
        public var backoff = Backoff()

        /// The defaults.
        public init() {}
    }

    /// Counts for `/metrics`.
    public struct Counters: Sendable, Equatable {
        /// Connections opened, the first ones included.
        public var opened = 0
        /// Connection attempts that failed.
        public var connectFailures = 0
        /// Connections dropped because they broke or passed a deadline.
        public var lost = 0
        /// Statements that ended in an error of any kind.
        public var statementErrors = 0
    }

    private struct Locked: Sendable {
        var state: PoolState<PostgresConnection>
        var waiters = WaiterRegistry<Void, PoolState<PostgresConnection>.Handoff>()
        var counters = Counters()
    }

    /// The database.
    public let url: DatabaseURL
    /// The clock deadlines are read on.
    public let clock: any TimeSource
    private let configuration: Configuration
    private let locked: Mutex<Locked>

    /// A pool; no connection is opened before the first call.
    public init(url: DatabaseURL, configuration: Configuration = Configuration(), clock: any TimeSource) {
        self.url = url
        self.configuration = configuration
        self.clock = clock
        locked = Mutex(Locked(state: PoolState(size: configuration.size, backoff: configuration.backoff)))
    }

    /// The counters now.
    public var counters: Counters { locked.withLock { $0.counters } }

    /// The deadline of a call made now.
    public func deadline() -> ContinuousClock.Instant { clock.now + configuration.timeout }

    /// Runs one statement (retried once on a fresh connection when it is idempotent and its connection broke).
    public func run(_ statement: Statement, deadline: ContinuousClock.Instant? = nil) async throws -> QueryResult {
        let deadline = deadline ?? self.deadline()
        return try await withConnection(deadline: deadline, retryIfLost: statement.idempotent) { connection in
            try await connection.run(statement, deadline: deadline)
        }
    }

    /// Lends one connection to `body`; when it throws a connection-dropping error, the connection is dropped, and
    /// `body` runs again on a fresh one if `retryIfLost` (or if the connection was found dead before anything was
    /// sent on it).
    public func withConnection<T: Sendable>(
        deadline: ContinuousClock.Instant, retryIfLost: Bool,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempts = 0
        while true {
            attempts += 1
            let connection = try await lease(deadline: deadline)
            do {
                let value = try await body(connection)
                giveBack(connection)
                return value
            } catch let error as PostgresError {
                giveBack(connection)
                countError()
                let retry = error.dropsConnection && (retryIfLost || connection.diedIdle) && attempts < 3
                if !retry || clock.now >= deadline { throw error }
            } catch {
                giveBack(connection)
                countError()
                throw error
            }
        }
    }

    /// Closes the idle connections and fails the waiters (at shutdown).
    public func shutdown() {
        let (idle, waiters) = locked.withLock { locked in
            let (idle, ids) = locked.state.drain()
            return (idle, ids.compactMap { locked.waiters.remove(id: $0) })
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.resume(.unavailable) }
    }

    // MARK: - Leases

    private func lease(deadline: ContinuousClock.Instant) async throws -> PostgresConnection {
        let now = clock.now
        // Decide and register in one step under the lock, so a handoff can never reach a waiter not yet registered.
        let handoff = await withCheckedContinuation { continuation in
            let immediate = locked.withLock { locked -> PoolState<PostgresConnection>.Handoff? in
                let id = locked.waiters.reserveID()
                switch locked.state.acquire(waiter: id, now: now) {
                case .use(let connection): return .use(connection)
                case .open: return .open
                case .unavailable: return .unavailable
                case .wait:
                    locked.waiters.add(id: id, (), continuation, until: deadline, on: clock) { [self] id in
                        let waiter = self.locked.withLock { locked in
                            locked.state.gaveUp(id) ? locked.waiters.remove(id: id) : nil
                        }
                        waiter?.resume(.unavailable)
                    }
                    return nil
                }
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        switch handoff {
        case .use(let connection):
            connection.beginLease()
            return connection
        case .open: return try await openConnection(deadline: deadline)
        case .unavailable: throw PostgresError.unavailable
        }
    }

    private func openConnection(deadline: ContinuousClock.Instant) async throws -> PostgresConnection {
        let started = clock.now
        do {
            let connection = try await PostgresConnection.connect(to: url, deadline: deadline, clock: clock)
            // A transaction its caller abandoned (deadline passed, or a partition) ends on the server within half a
            // call's deadline, so the row locks it holds stop others' changes for no longer.
            do {
                _ = try await connection.run(
                    SessionTimeouts.statement(idleInTransaction: configuration.timeout / 2), deadline: deadline)
            } catch {
                connection.close()
                throw error
            }
            locked.withLock { locked in
                locked.state.opened()
                locked.counters.opened += 1
            }
            return connection
        } catch {
            let failed = locked.withLock { locked in
                locked.counters.connectFailures += 1
                return locked.state.openFailed(startedAt: started).compactMap { id, handoff in
                    locked.waiters.remove(id: id).map { ($0, handoff) }
                }
            }
            for (waiter, handoff) in failed { waiter.resume(handoff) }
            throw error
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        let now = clock.now
        let healthy = connection.isOpen
        if !healthy { connection.close() }
        let handoffs = locked.withLock { locked in
            if !healthy { locked.counters.lost += 1 }
            return locked.state.released(connection, healthy: healthy, now: now).compactMap { id, handoff in
                locked.waiters.remove(id: id).map { ($0, handoff) }
            }
        }
        for (waiter, handoff) in handoffs { waiter.resume(handoff) }
    }

    private func countError() { locked.withLock { $0.counters.statementErrors += 1 } }
}
