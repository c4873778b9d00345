import Timing

/// The deadlines of one event loop's connections, earliest first (Timing's `DeadlineHeap`, the one deadline heap).
///
/// Entries are never removed early: a connection arms a new entry only when its deadline moves earlier, and
/// an entry that no longer matches the connection's armed deadline is dropped when it comes due. Under
/// keep-alive load a connection's deadline moves later with every request and earlier almost never, so
/// the heap holds about one entry per connection and a request costs no heap operation at all.
typealias TimerHeap = DeadlineHeap<MonotonicInstant, ConnectionTimer>

/// What a connection deadline is for: the connection in `slot` (with `generation`, so a reused slot is not confused).
struct ConnectionTimer: Sendable {
    /// The loop's slot of the connection.
    var slot: Int
    /// The slot's generation when the deadline was armed.
    var generation: UInt32
}
