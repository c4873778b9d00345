import Timing

/// Decides who gets which pooled connection: a pure value (the shape of `ConnectionState`), generic over the
/// connection so its tests use plain integers. `PostgresPool` keeps it under one lock and carries out what it says.
///
/// Rules: an idle connection goes to the caller; below `size`, a caller may open one — unless the back-off after
/// failed attempts says not yet, in which case it waits for a busy one when there is one and is answered
/// `unavailable` at once when there is none (so nothing queues on a dead database); a healthy connection handed back
/// goes to the oldest waiter; a broken one is forgotten, and its place offered to the oldest waiter as "open one".
public struct PoolState<Connection>: Sendable where Connection: Sendable {
    /// What a caller asking for a connection does.
    public enum Acquire: Sendable {
        /// Use this idle connection.
        case use(Connection)
        /// Open a new connection (the place is reserved; report `opened` or `openFailed`).
        case open
        /// Wait (registered under the id given); a handoff comes, or the caller's deadline.
        case wait
        /// Nothing to wait for: no connection is alive and the back-off says not yet.
        case unavailable
    }

    /// What a waiter is given.
    public enum Handoff: Sendable {
        /// A healthy connection.
        case use(Connection)
        /// A free place: open a connection.
        case open
        /// Nothing will come: fail with `unavailable`.
        case unavailable
    }

    /// The most connections open at once.
    public let size: Int
    /// The schedule of connection attempts after failures.
    public private(set) var backoff: Backoff
    /// Connections nobody uses.
    public private(set) var idle: [Connection] = []
    /// Connections open, lent or being opened.
    public private(set) var placesTaken = 0
    /// Waiting callers' ids, oldest first.
    public private(set) var waiting: [UInt64] = []

    /// An empty pool of `size` places.
    public init(size: Int, backoff: Backoff = Backoff()) {
        precondition(size > 0)
        self.size = size
        self.backoff = backoff
    }

    /// A caller (id `waiter`, used only if it must wait) asks for a connection at `now`.
    public mutating func acquire(waiter: UInt64, now: ContinuousClock.Instant) -> Acquire {
        if let connection = idle.popLast() { return .use(connection) }
        if placesTaken < size, backoff.mayAttempt(at: now) {
            placesTaken += 1
            return .open
        }
        guard placesTaken > 0 else { return .unavailable }
        waiting.append(waiter)
        return .wait
    }

    /// A connection was opened for a reserved place: attempts are back to the start of the schedule.
    public mutating func opened() { backoff.succeeded() }

    /// Opening a connection begun at `started` failed: the place is free again, the back-off grows, counted from
    /// `started` (an attempt that hung until its deadline across a partition has waited already, so the next may go
    /// at once and find the healed network, as `RetryLoop`'s sessions do); when no connection is left alive, every
    /// waiter is answered `unavailable` (returned, oldest first).
    public mutating func openFailed(startedAt started: ContinuousClock.Instant) -> [(UInt64, Handoff)] {
        placesTaken -= 1
        backoff.failed(at: started)
        guard placesTaken == 0 else { return [] }
        defer { waiting = [] }
        return waiting.map { ($0, .unavailable) }
    }

    /// A caller gives `connection` back, still `healthy` or not; returns the waiter it goes to, if any.
    public mutating func released(
        _ connection: Connection, healthy: Bool, now: ContinuousClock.Instant
    ) -> [(UInt64, Handoff)] {
        if healthy {
            guard !waiting.isEmpty else {
                idle.append(connection)
                return []
            }
            return [(waiting.removeFirst(), .use(connection))]
        }
        placesTaken -= 1
        guard !waiting.isEmpty else { return [] }
        if backoff.mayAttempt(at: now) {
            placesTaken += 1
            return [(waiting.removeFirst(), .open)]
        }
        guard placesTaken == 0 else { return [] }
        defer { waiting = [] }
        return waiting.map { ($0, .unavailable) }
    }

    /// Waiter `id` gave up (its deadline); false when it was handed something meanwhile.
    public mutating func gaveUp(_ id: UInt64) -> Bool {
        guard let index = waiting.firstIndex(of: id) else { return false }
        waiting.remove(at: index)
        return true
    }

    /// Empties the pool (shutdown): the idle connections to close, and the waiters to answer `unavailable`.
    public mutating func drain() -> (idle: [Connection], waiters: [UInt64]) {
        defer {
            placesTaken -= idle.count
            idle = []
            waiting = []
        }
        return (idle, waiting)
    }
}
