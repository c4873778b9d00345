import Foundation
import HabitsAPI
import Synchronization

/// The one clock this target's tests move by hand: the cache's TTLs and "as of" times, and the socket pool's idle
/// ages. Both readings move together, so a test reads either as the clock the code under test uses.
final class ManualClock: TimeSource {
    private let current: Mutex<(now: ContinuousClock.Instant, date: Date)>

    /// Starts at the real monotonic now and a fixed wall-clock date.
    init(date: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex((ContinuousClock.now, date)) }

    /// The current monotonic instant.
    var now: ContinuousClock.Instant { current.withLock { $0.now } }

    /// The current wall-clock date.
    var date: Date { current.withLock { $0.date } }

    /// Moves time by `duration` (negative moves it back, to replay a reordering between threads).
    func advance(by duration: Duration) {
        current.withLock { $0 = ($0.now.advanced(by: duration), $0.date.addingTimeInterval(duration.inSeconds)) }
    }
}
