import Timing

/// When an event loop gives its core away (`sched_yield`) after sending a round's answers (issue 21).
///
/// A loop that keeps finding work never sleeps, so the peers its answers wake (a client, or nginx in front, on the
/// same cores) wait for the scheduler to preempt it: up to a tick, 4 ms here, for every answer their thread has to
/// read. Once a loop has run for `budget` with answers out and has spent less than a quarter of that stretch in
/// `epoll_wait`, it yields once, and those peers run at once. A loop that waits between rounds does not yield: it
/// already leaves its core, and yielding there puts its next requests behind other threads. At c = 1 on loopback
/// the waits are 10-50 µs each, too short to count one by one (judged one by one, such a loop yielded every third
/// request and lost a tenth of its throughput), but they fill well over a quarter of the stretch; at full speed a
/// loop waits a few microseconds now and then, and still yields.
///
/// A pure value: the loop reports its waits and its sends and asks before each `epoll_wait`.
struct CoreSharing {
    /// How long a loop may run without leaving its core before it yields once answers are out, in nanoseconds.
    static let budget: Int64 = 100_000
    /// A loop whose waits took at least this share of the stretch (1 / `idleShareDivisor`) left its core enough.
    static let idleShareDivisor: Int64 = 4
    /// One `epoll_wait` longer than this (in nanoseconds) left the core: it slept, or the thread was preempted in
    /// it, and the stretch starts again. One that found events ready returns in a few microseconds.
    static let leftCore: Int64 = 50_000

    /// Since when the loop has run without leaving its core.
    private(set) var busySince: MonotonicInstant
    /// How long, in nanoseconds, the loop has waited in `epoll_wait` since `busySince`.
    private(set) var waitedInStretch: Int64 = 0
    /// Whether answers went out since the loop last left its core.
    private(set) var sent = false

    /// A loop that starts running at `start`.
    init(start: MonotonicInstant) { busySince = start }

    /// Answers went out.
    mutating func answersSent() { sent = true }

    /// An `epoll_wait` from `start` to `end`: a long one starts the loop's busy stretch again at `end`, a short one
    /// adds to the stretch's waiting.
    mutating func waited(from start: MonotonicInstant, to end: MonotonicInstant) {
        let wait = end.nanoseconds(since: start)
        if wait > Self.leftCore {
            restart(at: end)
        } else {
            waitedInStretch += wait
        }
    }

    /// Whether to yield now, before the next `epoll_wait`. Either way a stretch that reached the budget with answers
    /// out ends: one that waited its share left the core often enough, and yielding leaves it.
    mutating func shouldYield(now: MonotonicInstant) -> Bool {
        let stretch = now.nanoseconds(since: busySince)
        guard sent, stretch >= Self.budget else { return false }
        let waitedItsShare = waitedInStretch * Self.idleShareDivisor >= stretch
        restart(at: now)
        return !waitedItsShare
    }

    private mutating func restart(at instant: MonotonicInstant) {
        busySince = instant
        waitedInStretch = 0
        sent = false
    }
}
