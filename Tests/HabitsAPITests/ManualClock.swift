import Foundation
import Synchronization

/// A clock tests move by hand, for the cache's TTLs.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at a fixed instant.
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    /// The current instant.
    var now: Date { current.withLock { $0 } }

    /// Moves time forward.
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
