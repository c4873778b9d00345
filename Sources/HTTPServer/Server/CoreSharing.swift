import Timing

/// When an event loop gives its core away (`sched_yield`) after sending a round's answers (issue 21).
///
/// A loop that keeps finding work never sleeps, so the peers its answers wake (a client, or nginx in front, on the
/// same cores) wait for the scheduler to preempt it: up to a tick, 4 ms here, for every answer their thread has to
/// read. Once a loop has run for `budget` without leaving its core and has answers out, it yields once, and those
/// peers run at once. A loop that waits in `epoll_wait` between rounds, as at light load, does not yield: it already
/// leaves its core, and yielding every round there would put the next requests behind other threads. Not yet
/// exact: a wait shorter than `leftCore` does not count, and at c = 1 on loopback the sleep between requests is
/// 10-50 µs, so such a loop still yields about every third request (a 10 µs `leftCore` stopped that, but at full
/// speed a loop's short sleeps then restarted its stretch and the p99 went back to 7 ms).
///
/// A pure value: the loop reports its waits and its sends and asks before each `epoll_wait`.
struct CoreSharing {
    /// How long a loop may run without leaving its core before it yields once answers are out.
    static let budget = Duration.microseconds(100)
    /// An `epoll_wait` that lasted longer than this left the core (it slept, or the thread was preempted in it); one
    /// that found events ready returns in a few microseconds.
    static let leftCore = Duration.microseconds(50)

    /// Since when the loop has run without leaving its core.
    private(set) var busySince: MonotonicInstant
    /// Whether answers went out since the loop last left its core.
    private(set) var sent = false

    /// A loop that starts running at `start`.
    init(start: MonotonicInstant) { busySince = start }

    /// Answers went out.
    mutating func answersSent() { sent = true }

    /// An `epoll_wait` from `start` to `end`: if it left the core, the loop's busy stretch starts again at `end`.
    mutating func waited(from start: MonotonicInstant, to end: MonotonicInstant) {
        if end - start > Self.leftCore { restart(at: end) }
    }

    /// Whether to yield now, before the next `epoll_wait`; yielding counts as leaving the core.
    mutating func shouldYield(now: MonotonicInstant) -> Bool {
        guard sent, now - busySince >= Self.budget else { return false }
        restart(at: now)
        return true
    }

    private mutating func restart(at instant: MonotonicInstant) {
        busySince = instant
        sent = false
    }
}
