import Synchronization

/// A thread-safe counter, for handlers and fakes that count their calls.
public final class Counter: Sendable {
    private let value = Mutex(0)

    /// Starts at zero.
    public init() {}

    /// Returns the value before incrementing.
    @discardableResult
    public func increment() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }

    /// The number of increments so far.
    public var count: Int { value.withLock { $0 } }
}
