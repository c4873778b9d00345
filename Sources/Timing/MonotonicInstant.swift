/// An instant of the continuous clock (`ContinuousClock`), held as whole nanoseconds since the clock's epoch in a
/// type whose size every module knows.
///
/// Why not `ContinuousClock.Instant` itself: the standard library is built with library evolution, so outside it
/// that type's size is unknown, and every struct or enum holding one is copied, compared and switched over through
/// the runtime (value witnesses, type metadata look-ups, `swift_getEnumCaseMultiPayload`). A connection's state and
/// each request's start hold instants, and on a warm page that runtime work was about a tenth of the event loop's
/// user-space CPU (issue 21). So the event loops keep their times in this. `TimeSource` stays the one clock: what
/// comes from it is converted with `init(_:)`, to the nanosecond, where it meets a loop's times.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the continuous clock's epoch.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the continuous clock's epoch.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The same instant as `instant`.
    @inlinable public init(_ instant: ContinuousClock.Instant) {
        nanoseconds = Self.nanoseconds(of: ContinuousClock().systemEpoch.duration(to: instant))
    }

    /// The continuous clock's now. Library code reads its time from a `TimeSource`; the event loops read this by
    /// the rule written in `EventLoop` (HTTPServer's `Server/EventLoop.swift`).
    @inlinable public static var now: MonotonicInstant { MonotonicInstant(ContinuousClock.now) }

    /// `duration` in whole nanoseconds (rounded toward zero), saturated to what an `Int64` holds.
    @inlinable public static func nanoseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? (seconds < 0 ? .min : .max) : sum
    }

    /// `duration` after `instant`, saturated at the ends of `Int64` (a deadline "never" stays the latest instant).
    @inlinable public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let step = nanoseconds(of: duration)
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(step)
        return MonotonicInstant(nanoseconds: overflow ? (step < 0 ? .min : .max) : sum)
    }

    /// `duration` before `instant`, saturated as `+` is.
    @inlinable public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant + (.zero - duration)
    }

    /// The time from `start` to `end` (negative when `end` is earlier).
    @inlinable public static func - (end: MonotonicInstant, start: MonotonicInstant) -> Duration {
        .nanoseconds(end.nanoseconds(since: start))
    }

    /// The nanoseconds from `start` to this instant (negative when it is earlier), saturated as `+` is: the time
    /// between two instants where a `Duration`'s 128-bit arithmetic would cost more than the answer is worth (a
    /// request's logged duration, the loop's wait for its next deadline).
    @inlinable public func nanoseconds(since start: MonotonicInstant) -> Int64 {
        let (difference, overflow) = nanoseconds.subtractingReportingOverflow(start.nanoseconds)
        return overflow ? (start.nanoseconds < 0 ? .max : .min) : difference
    }

    @inlinable public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
        a.nanoseconds < b.nanoseconds
    }

    public var description: String { "\(nanoseconds) ns" }
}
