#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one poll-until-deadline of the blocking sockets (the upstream client's `Socket`, `PostgresConnection`):
/// `poll(2)` on one descriptor, again after a signal, until it is ready or the deadline has passed.
public enum DeadlinePoll {
    /// How a wait ended.
    public enum Outcome: Equatable, Sendable {
        /// The descriptor is ready for the events (or has an error or hang-up to report).
        case ready
        /// The deadline passed first.
        case timedOut
        /// `poll` failed with this errno.
        case failed(errno: Int32)
    }

    /// Waits until `fd` is ready for `events` or `deadline` passes. `now` is the clock the deadline is on: the kernel
    /// counts `poll`'s timeout in real time, so this is the system's clock but in tests.
    public static func wait(
        fd: Int32, events: Int16, until deadline: ContinuousClock.Instant,
        now: () -> ContinuousClock.Instant
    ) -> Outcome {
        while true {
            // A signed remaining time: a deadline already behind us is a time-out, never a wrapped-around wait.
            let remaining = deadline - now()
            guard remaining > .zero else { return .timedOut }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, timeout(for: remaining))
            if ready > 0 { return .ready }
            if ready < 0 && errno != EINTR { return .failed(errno: errno) }
        }
    }

    /// `poll`'s timeout for `remaining` (more than zero): rounded up to the millisecond, so the wait never ends
    /// just before the deadline and spins on a zero timeout; within 1…`Int32.max`.
    public static func timeout(for remaining: Duration) -> Int32 {
        Int32(clamping: max(1, remaining.millisecondsRoundedUp))
    }
}
