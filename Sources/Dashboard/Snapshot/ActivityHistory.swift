import Foundation
import Synchronization

/// A small ring of past totals (per habit and per person), so Home can say what is happening now: what grew since a
/// few minutes ago (issue 10 point 3).
///
/// At most one point per `spacing` is kept, and at most `capacity` points: with the defaults (10 s, 31 points) the
/// ring spans five minutes and holds 31 × (habits + people) integers — about 30 KB for 50 habits and 50 people.
public final class ActivityHistory: Sendable {
    /// One remembered moment: the snapshot version and its totals.
    struct Point: Sendable {
        var time: ContinuousClock.Instant
        var version: UInt64
        var habitTotals: [String: Int]
        var userTotals: [String: Int]
    }

    private let points = Mutex<[Point]>([])
    /// Least time between kept points.
    let spacing: Duration
    /// Points kept at most.
    let capacity: Int

    /// Creates an empty history.
    public init(spacing: Duration = .seconds(10), capacity: Int = 31) {
        self.spacing = spacing
        self.capacity = max(2, capacity)
    }

    /// Remembers `snapshot`'s totals at `time`, unless a point was kept less than `spacing` ago.
    public func record(_ snapshot: Snapshot, at time: ContinuousClock.Instant) {
        let due = points.withLock { points in
            guard let last = points.last else { return true }
            return last.time.duration(to: time) >= spacing && last.version != snapshot.version
        }
        guard due else { return }
        // Totals are summed outside the lock; a point recorded twice by racing requests only repeats a moment.
        let point = Point(
            time: time, version: snapshot.version, habitTotals: snapshot.habitTotals, userTotals: snapshot.userTotals)
        points.withLock { points in
            points.append(point)
            if points.count > capacity { points.removeFirst(points.count - capacity) }
        }
    }

    /// The oldest point no older than `window` before `time`: what "now" is compared with; nil when none.
    func baseline(before time: ContinuousClock.Instant, window: Duration = .seconds(300)) -> Point? {
        points.withLock { points in
            points.first { $0.time.duration(to: time) <= window && $0.time < time }
        }
    }
}
