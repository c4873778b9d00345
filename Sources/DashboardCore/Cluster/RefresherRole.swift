import Postgres
import Timing

/// Which part this dashboard plays in a cluster sharing one PostgreSQL (issue 19 point 4), as a pure value (the shape
/// of `ConnectionState`): events in, actions out, time as arguments. `Refresher` carries the actions out on a
/// connection of its own.
///
/// - **Leader**: it holds the cluster's session advisory lock (`pg_try_advisory_lock`), so it alone refreshes the
///   upstream, stores each new snapshot and notifies the others. The lock belongs to the session: when the process
///   dies or its connection breaks, PostgreSQL releases it, and nothing has to expire.
/// - **Follower**: the database answers but another session holds the lock. It asks for the lock again every
///   `lockRetry` (0.5 s), so a killed or disconnected leader is replaced within about that, well inside issue 19's
///   2 s; meanwhile it loads the stored snapshot whenever it is told of a new one, and publishes it.
/// - **Standalone**: no database (down, hung, or not yet reached): it fetches the upstream itself, as one dashboard
///   does alone, and says so in `/healthz` and `/metrics`. `Refresher` connects again with back-off (`RetryLoop`).
///
/// A leader whose lock session fails a check (a statement that errs or passes its deadline) steps down at once to
/// standalone: it cannot know whether PostgreSQL still counts it as the holder, and another dashboard may already.
struct RefresherRole: Equatable {
    /// The parts.
    enum Role: String, Equatable, Sendable {
        case standalone, follower, leader
    }

    /// Timings.
    struct Policy: Equatable {
        /// A follower asks for the lock this often; a leader checks its session this often.
        var lockRetry: Duration = .milliseconds(500)
        /// Connecting again after failures: 0.25 s, doubled up to 1 s, so a database back after an outage has its
        /// leader again within about a second.
        var reconnect = Backoff(initial: .milliseconds(250), maximum: .seconds(1))
    }

    /// What `Refresher` does.
    enum Action: Equatable {
        /// Run `pg_try_advisory_lock` on the lock session, then report `lockAnswered` or `failed`.
        case tryLock
        /// Run a trivial statement on the lock session (a leader's check), then report `checked` or `failed`.
        case check
        /// This dashboard now refreshes the upstream and stores what it fetches.
        case startRefreshing
        /// This dashboard no longer stores anything (it fetches for itself, or follows).
        case stopRefreshing
        /// Read the stored snapshot and history, and publish them when new (a follower that just joined, or was told
        /// of a new version; `SnapshotState.snapshotPublished` shows only a follower what is stored).
        case loadRow
    }

    let policy: Policy
    /// The part played now.
    private(set) var role: Role = .standalone
    /// Whether the lock session is open.
    private(set) var connected = false
    /// When the next step on the open session (try the lock, check) is due.
    private(set) var nextStep: ContinuousClock.Instant
    /// Times this dashboard became the leader (for `/metrics`).
    private(set) var takeovers = 0

    /// A dashboard that has not reached the database yet.
    init(policy: Policy = Policy(), now: ContinuousClock.Instant) {
        self.policy = policy
        nextStep = now
    }

    // MARK: - Events

    /// The timer came: the step on the open session that is due, if any (none without one).
    func due(now: ContinuousClock.Instant) -> Action? {
        guard connected, now >= nextStep else { return nil }
        return role == .leader ? .check : .tryLock
    }

    /// The lock session opened: ask for the lock now, and catch up with the stored snapshot meanwhile.
    mutating func connected(now: ContinuousClock.Instant) -> [Action] {
        connected = true
        nextStep = now
        role = .follower
        return [.loadRow, .tryLock]
    }

    /// `pg_try_advisory_lock` answered.
    mutating func lockAnswered(acquired: Bool, now: ContinuousClock.Instant) -> [Action] {
        nextStep = now + policy.lockRetry
        guard role != .leader else { return [] }
        guard acquired else {
            role = .follower
            return []
        }
        role = .leader
        takeovers += 1
        return [.startRefreshing]
    }

    /// A leader's check passed.
    mutating func checked(now: ContinuousClock.Instant) {
        nextStep = now + policy.lockRetry
    }

    /// The lock session failed (could not open, a statement erred or passed its deadline): fetch for yourself, a
    /// leader stepping down at once, until `Refresher` connects again after the back-off.
    mutating func failed(now: ContinuousClock.Instant) -> [Action] {
        let wasLeader = role == .leader
        connected = false
        role = .standalone
        return wasLeader ? [.stopRefreshing] : []
    }

    /// Another dashboard stored a new snapshot (a notification, or the listener reconnected and may have missed
    /// some): a follower loads it. The leader wrote it itself; standalone has no database to read.
    func notified() -> [Action] {
        role == .follower ? [.loadRow] : []
    }
}
