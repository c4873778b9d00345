import Synchronization

/// Hands out short request ids unique within the process (`3f-1a2b`: a per-process prefix, then a counter
/// in base 36), so log lines of one request can be grepped together.
final class RequestIDGenerator: Sendable {
    private let counter = Atomic<Int>(0)
    private let prefix: String

    /// Creates a generator with a random prefix, so ids from two runs are unlikely to collide in one log.
    init() {
        prefix = String(Int.random(in: 36..<1296), radix: 36) + "-"
    }

    /// The next id.
    func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        return prefix + String(value, radix: 36)
    }
}
