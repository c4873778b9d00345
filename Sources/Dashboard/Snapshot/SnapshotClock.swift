import Foundation

/// Time for the snapshot store: the wall-clock instant (shown in "data as of") and sleeping. Injected so tests move
/// time by hand and never depend on the machine's speed.
public protocol SnapshotClock: Sendable {
    /// Now.
    var now: Date { get }
    /// Returns after `seconds`, or at once when the task is cancelled.
    func sleep(for seconds: TimeInterval) async
}

/// The system clock.
public struct SystemSnapshotClock: SnapshotClock {
    /// Creates the clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(for seconds: TimeInterval) async {
        do {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } catch {
            // Cancelled: the caller wanted to stop waiting, which returning now does.
        }
    }
}
