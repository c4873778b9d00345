/// When to try again after failures: exponential from `initial`, doubling up to `maximum`, reset by a success. The
/// one backoff: the PostgreSQL pool and sessions (`Reconnecting`) and the snapshot's refresh schedule use it. A pure
/// value on the one clock's instants, so tests step through the schedule without sockets or waiting.
public struct Backoff: Sendable, Equatable {
    /// The first delay after a failure.
    public var initial: Duration
    /// The longest delay.
    public var maximum: Duration
    /// Failures in a row.
    public private(set) var failures = 0
    /// No attempt before this instant (nil: attempt at once).
    public private(set) var nextAttempt: ContinuousClock.Instant?

    /// A schedule; the defaults retry after 0.1, 0.2, 0.4 … 2 s, so a database back after an outage is in use within
    /// about 2 s and a dead one costs at most one connection attempt every 2 s.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(2)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay that follows `failures` failures in a row.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = initial
        for _ in 1..<min(failures, 32) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }

    /// Whether an attempt may start at `now`.
    public func mayAttempt(at now: ContinuousClock.Instant) -> Bool {
        nextAttempt.map { now >= $0 } ?? true
    }

    /// Records a failed attempt at `now`; returns the instant of the next one.
    @discardableResult
    public mutating func failed(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        failures += 1
        let next = now + delay(afterFailures: failures)
        nextAttempt = next
        return next
    }

    /// Records a success: the next failure starts the schedule from `initial` again.
    public mutating func succeeded() {
        failures = 0
        nextAttempt = nil
    }
}
