/// Rate-limits the warnings about connections the server turned away or closed to make room: at most one line
/// per `interval`, carrying the counts since the previous line.
///
/// Why: a reconnecting flood was refused ~1 500 times a second and wrote one line each (93 972 lines, 22 MB, in a
/// minute; issue 8), which costs more than the refusals themselves and buries every other line. No I/O and no
/// clock: every call carries `now`, so tests drive it with a fake clock.
struct RefusalLog {
    /// Why a connection was turned away or closed.
    enum Reason: Equatable, Sendable {
        /// The connection cap was reached and nothing could be closed to make room: 503.
        case atCapacity
        /// Its address already holds its share of the connections: 503.
        case perClientLimit
        /// Over the cap with the 503 answers themselves at their bound: closed without an answer.
        case dropped
        /// An idle or slow connection closed to make room for a new one.
        case evicted
    }

    /// The counts one log line reports.
    struct Counts: Equatable, Sendable {
        /// `Reason.atCapacity` events.
        var atCapacity = 0
        /// `Reason.perClientLimit` events.
        var perClientLimit = 0
        /// `Reason.dropped` events.
        var dropped = 0
        /// `Reason.evicted` events.
        var evicted = 0

        /// Whether nothing has been counted.
        var isEmpty: Bool { self == Counts() }

        /// The metadata of the log line; `lastPeer` names the newest client involved, when known.
        func metadata(lastPeer: String?) -> [String: String] {
            var metadata = [
                "refused.capacity": "\(atCapacity)", "refused.per_client": "\(perClientLimit)",
                "refused.dropped": "\(dropped)", "evicted": "\(evicted)",
            ]
            if let lastPeer { metadata["net.peer"] = lastPeer }
            return metadata
        }

        /// Counts one event.
        mutating func add(_ reason: Reason) {
            switch reason {
            case .atCapacity: atCapacity += 1
            case .perClientLimit: perClientLimit += 1
            case .dropped: dropped += 1
            case .evicted: evicted += 1
            }
        }
    }

    /// What the caller does after `record`.
    enum Decision: Equatable {
        /// Write one line with these counts now.
        case log(Counts)
        /// Counted; the first event held back since the last line: call `flush` at `flushAt`, so the count is
        /// reported even if nothing else happens.
        case heldFirst(flushAt: ContinuousClock.Instant)
        /// Counted; a flush is already due.
        case held
    }

    /// The shortest time between two lines.
    let interval: Duration
    /// Events not reported yet.
    private(set) var pending = Counts()
    /// When the last line was written.
    private var lastLine: ContinuousClock.Instant?

    /// A log that writes at most one line per `interval`.
    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Counts one event at `now`; the first event after a quiet interval is reported at once.
    mutating func record(_ reason: Reason, now: ContinuousClock.Instant) -> Decision {
        let wasEmpty = pending.isEmpty
        pending.add(reason)
        if let lastLine, now < lastLine + interval {
            return wasEmpty ? .heldFirst(flushAt: lastLine + interval) : .held
        }
        return .log(take(now: now))
    }

    /// The held-back counts, if there are any and a line is allowed at `now`.
    mutating func flush(now: ContinuousClock.Instant) -> Counts? {
        guard !pending.isEmpty else { return nil }
        if let lastLine, now < lastLine + interval { return nil }
        return take(now: now)
    }

    private mutating func take(now: ContinuousClock.Instant) -> Counts {
        defer { pending = Counts() }
        lastLine = now
        return pending
    }
}
