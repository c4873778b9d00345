import Foundation

/// The two clocks the dashboard reads, injected so tests move time by hand.
///
/// Deadlines, TTLs and ages use `now`, a monotonic instant: it never jumps when the wall clock is set (NTP, an
/// operator, a VM resumed), so an entry can neither live for hours nor expire at once because of it. `date` is the
/// wall clock and is read only for a time shown to people ("data as of") or sent elsewhere (a logged habit's
/// timestamp, a file on disk). Code never subtracts one from the other.
public protocol TimeSource: Sendable {
    /// The monotonic now, for deadlines, TTLs and ages.
    var now: ContinuousClock.Instant { get }
    /// The wall-clock now, only for times shown to people or sent elsewhere.
    var date: Date { get }
}

/// The system's clocks.
public struct SystemTimeSource: TimeSource {
    /// Creates the clocks.
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public var date: Date { Date() }
}
