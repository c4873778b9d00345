/// A `Duration` in milliseconds, the unit of `poll(2)`, `epoll_wait(2)`, logs and rate windows: the one conversion,
/// each rounding named.
extension Duration {
    /// Whole milliseconds, rounded toward zero from whole nanoseconds, saturated as `MonotonicInstant` is.
    @inlinable public var wholeMilliseconds: Int64 { MonotonicInstant.nanoseconds(of: self) / 1_000_000 }

    /// Whole milliseconds, rounded up from whole nanoseconds (0.2 ms is 1 ms), saturated: a wait handed to the
    /// kernel ends at or after its deadline, never just before it (which would spin).
    @inlinable public var millisecondsRoundedUp: Int64 {
        Self.millisecondsRoundedUp(nanoseconds: MonotonicInstant.nanoseconds(of: self))
    }

    /// `nanoseconds` in whole milliseconds, rounded up, as `millisecondsRoundedUp` (for `MonotonicInstant`
    /// differences, which are nanoseconds already).
    @inlinable public static func millisecondsRoundedUp(nanoseconds: Int64) -> Int64 {
        nanoseconds > 0 ? (nanoseconds - 1) / 1_000_000 + 1 : nanoseconds / 1_000_000
    }

    /// Milliseconds with their fraction, for logs.
    public var fractionalMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
