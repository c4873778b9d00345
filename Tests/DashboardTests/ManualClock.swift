import Foundation
import Synchronization

/// A clock tests move by hand, for settings usage times, expiry and the new-browser rate limit.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start` (by default the real time, so files the kernel stamps and the clock agree).
    init(_ start: Date = Date()) { current = Mutex(start) }

    /// The current instant.
    var now: Date { current.withLock { $0 } }

    /// Moves time forward.
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// Moves time forward by whole days.
    func advance(days: Double) { advance(by: days * 86_400) }
}
