import Foundation

/// Time for the snapshot store: the wall-clock instant (shown in "data as of") and sleeping. Injected so tests move
/// time by hand and never depend on the machine's speed.
public protocol SnapshotClock: Sendable {
    /// Now.
    var now: Date { get }
    /// Returns once `deadline` has come (at once if it has already), or when the task is cancelled.
    ///
    /// A deadline, not a duration: callers fix it when they decide to wait, so a sleeping task that starts late
    /// (tasks run when a thread is free) still wakes when it should. With durations, a manual clock moved between
    /// the decision and the sleep left a parked poll waiting forever, which hung the test suite (issue 8).
    func sleep(until deadline: Date) async
}

/// The system clock.
public struct SystemSnapshotClock: SnapshotClock {
    /// Creates the clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        do {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } catch {
            // Cancelled: the caller wanted to stop waiting, which returning now does.
        }
    }
}
