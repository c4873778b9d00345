import Synchronization

/// A monotonic clock tests move by hand (either way, to replay a reordering between threads).
final class ManualInstantClock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    /// The current instant.
    var now: ContinuousClock.Instant { current.withLock { $0 } }

    /// Moves time by `duration` (negative moves it back).
    func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }
}
