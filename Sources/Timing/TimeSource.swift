import Foundation

/// The one clock of the library code: every deadline, age, "as of" time and timer reads or waits on an injected
/// `TimeSource`, so tests move time by hand (`ManualClock`) and never depend on the machine's speed.
///
/// Deadlines, ages and timers use `now`, a monotonic instant: it never jumps when the wall clock is set (NTP, an
/// operator, a VM resumed). `date` is the wall clock, read only for a time shown to people ("data as of"), sent
/// elsewhere (a logged habit's timestamp) or kept in a file that outlives the process. Code never subtracts one from
/// the other.
///
/// `sleep(until:)` in a task, through `after` (once) and `every` (repeating), is the one timer outside the event loops (which keep their `TimerHeap` for connection
/// deadlines: those fire on the loop's own thread between `epoll_wait` rounds, where a task would cost a hop).
public protocol TimeSource: Sendable {
    /// The monotonic now, for deadlines, ages and timers.
    var now: ContinuousClock.Instant { get }
    /// The wall-clock now, only for times shown to people, sent elsewhere or kept on disk.
    var date: Date { get }
    /// Returns once `deadline` has come (at once if it has already), or when the task is cancelled.
    ///
    /// A deadline, not a duration: callers fix it when they decide to wait, so a sleeping task that starts late
    /// (tasks run when a thread is free) still wakes when it should. With durations, a manual clock moved between
    /// the decision and the sleep left a parked poll waiting forever, which hung the test suite (issue 8).
    func sleep(until deadline: ContinuousClock.Instant) async
}

/// The system's clocks: the only place library code reads them.
public struct SystemTimeSource: TimeSource {
    /// Creates the clock.
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public var date: Date { Date() }

    public func sleep(until deadline: ContinuousClock.Instant) async {
        do {
            try await ContinuousClock().sleep(until: deadline)
        } catch {
            // Cancelled: the caller wanted to stop waiting, which returning now does.
        }
    }
}

extension TimeSource {
    /// Runs `body` once `deadline` comes, in a new task, unless the returned task is cancelled first (the timer).
    @discardableResult
    public func after(
        _ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        Task {
            await sleep(until: deadline)
            guard !Task.isCancelled else { return }
            await body()
        }
    }

    /// Runs `body` every `interval` (the first time one interval from now) in a new task, until the returned task is
    /// cancelled: the one repeating timer.
    ///
    /// Deadlines count from the start, not from each run's end, so a slow run does not shift the next; runs missed
    /// while the process was suspended (or while a run overran) are one run, not a burst.
    @discardableResult
    public func every(_ interval: Duration, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task {
            var next = now + interval
            while true {
                await sleep(until: next)
                guard !Task.isCancelled else { return }
                await body()
                next += interval
                let current = now
                if next <= current { next = current + interval }
            }
        }
    }
}
