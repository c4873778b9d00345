import Foundation
import HabitsAPI

/// Time for the snapshot store: the monotonic `now` for its schedule, long-poll deadlines and ages, the wall-clock
/// `date` only for the "data as of" notice and the snapshot file's fetch time, and sleeping. Injected so tests move
/// time by hand and never depend on the machine's speed.
public protocol SnapshotClock: TimeSource {
    /// Returns once `deadline` has come (at once if it has already), or when the task is cancelled.
    ///
    /// A deadline, not a duration: callers fix it when they decide to wait, so a sleeping task that starts late
    /// (tasks run when a thread is free) still wakes when it should. With durations, a manual clock moved between
    /// the decision and the sleep left a parked poll waiting forever, which hung the test suite (issue 8).
    func sleep(until deadline: ContinuousClock.Instant) async
}

/// The system clock.
public struct SystemSnapshotClock: SnapshotClock {
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
