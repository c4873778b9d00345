/// Keep-alive connections waiting for their next call, newest last, with the instant each was put back.
///
/// A pure value: time arrives as arguments, so tests replay any interleaving. Ages are signed `Duration`s: a
/// connection stamped by another thread after the taker read its clock has a negative age, which counts as
/// fresh. (The unsigned nanosecond difference this replaces trapped on exactly that reordering and took the
/// whole process down under load; issue 8.)
struct IdleConnectionPool<Connection> {
    /// Most connections kept; a connection given back beyond it is refused (the caller closes it).
    let capacity: Int
    /// Connections idle this long or longer are not reused: the server's own idle timeout may close them while
    /// our request is on the wire.
    let maxIdle: Duration
    private var entries: [(connection: Connection, since: ContinuousClock.Instant)] = []

    /// An empty pool.
    init(capacity: Int, maxIdle: Duration) {
        self.capacity = capacity
        self.maxIdle = maxIdle
    }

    /// How many connections wait.
    var count: Int { entries.count }

    /// Keeps `connection`, idle from `now`; false when the pool is full (the caller closes it).
    mutating func put(_ connection: Connection, at now: ContinuousClock.Instant) -> Bool {
        guard entries.count < capacity else { return false }
        entries.append((connection, now))
        return true
    }

    /// The most recently returned connection still young enough at `now`; every older one popped on the way is
    /// handed to `discard`. Nil when none is left.
    mutating func take(at now: ContinuousClock.Instant, discarding discard: (Connection) -> Void) -> Connection? {
        while let entry = entries.popLast() {
            if now - entry.since < maxIdle { return entry.connection }
            discard(entry.connection)
        }
        return nil
    }

    /// Removes and returns every connection (at shutdown).
    mutating func removeAll() -> [Connection] {
        defer { entries.removeAll() }
        return entries.map(\.connection)
    }
}
