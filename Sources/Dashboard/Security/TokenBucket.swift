import Foundation

/// A token bucket: holds up to `capacity` tokens, gains `capacity` per `period`, and each admitted event takes one.
/// Pure: time arrives as an argument, so tests drive it with a manual clock.
struct TokenBucket: Equatable, Sendable {
    /// The most tokens held (the burst), also the number gained per period.
    let capacity: Double
    /// Tokens gained per second.
    let refillPerSecond: Double
    private var tokens: Double
    private var updated: Date

    /// A full bucket of `capacity` tokens that refills completely every `period` seconds.
    init(capacity: Int, period: TimeInterval, now: Date) {
        self.capacity = Double(capacity)
        self.refillPerSecond = Double(capacity) / period
        self.tokens = Double(capacity)
        self.updated = now
    }

    /// Takes a token if there is one and returns nil; otherwise returns the seconds until there will be one.
    mutating func take(at now: Date) -> TimeInterval? {
        refill(at: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / refillPerSecond
    }

    /// Whether it has refilled completely, i.e. is no different from a new bucket and can be forgotten.
    func isFull(at now: Date) -> Bool {
        var copy = self
        copy.refill(at: now)
        return copy.tokens >= capacity
    }

    private mutating func refill(at now: Date) {
        // A clock that steps back gains nothing rather than going negative.
        let elapsed = max(0, now.timeIntervalSince(updated))
        tokens = min(capacity, tokens + elapsed * refillPerSecond)
        updated = max(updated, now)
    }
}
