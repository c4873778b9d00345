import DashboardCore
import Foundation

/// A token bucket: holds up to `capacity` tokens, gains `capacity` per `period`, and each admitted event takes one.
/// Pure: time arrives as an argument, a monotonic instant, so tests drive it with a manual clock and setting the
/// wall clock neither refills nor drains it.
struct TokenBucket: Equatable, Sendable {
    /// The most tokens held (the burst), also the number gained per period.
    let capacity: Double
    /// Tokens gained per second.
    let refillPerSecond: Double
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket of `capacity` tokens that refills completely every `period`.
    init(capacity: Int, period: Duration, now: ContinuousClock.Instant) {
        self.capacity = Double(capacity)
        self.refillPerSecond = Double(capacity) / (period / .seconds(1))
        self.tokens = Double(capacity)
        self.updated = now
    }

    /// Takes a token if there is one and returns nil; otherwise returns the time until there will be one.
    mutating func take(at now: ContinuousClock.Instant) -> Duration? {
        refill(at: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return .seconds((1 - tokens) / refillPerSecond)
    }

    /// Whether it has refilled completely, i.e. is no different from a new bucket and can be forgotten.
    func isFull(at now: ContinuousClock.Instant) -> Bool {
        var copy = self
        copy.refill(at: now)
        return copy.tokens >= capacity
    }

    private mutating func refill(at now: ContinuousClock.Instant) {
        // An instant older than the last one (read before a racing caller's) gains nothing rather than going negative.
        let elapsed = max(0, updated.duration(to: now) / .seconds(1))
        tokens = min(capacity, tokens + elapsed * refillPerSecond)
        updated = max(updated, now)
    }
}
