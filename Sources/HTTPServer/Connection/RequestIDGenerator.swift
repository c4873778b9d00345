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

    /// A request's id before it is spelled out: an answer from the memo whose log line is summed never needs its text
    /// (formatting it was 1 % of a warm page's CPU).
    struct ID: Sendable {
        let prefix: String
        let number: Int

        /// The id as logs and handlers see it.
        var text: String { RequestIDGenerator.format(prefix: prefix, number) }
    }

    /// The next id, to be spelled out when needed.
    func nextID() -> ID {
        ID(prefix: prefix, number: counter.add(1, ordering: .relaxed).newValue)
    }

    /// `prefix` then `value` in lowercase base 36, built in one go: `String(_:radix:)` plus a concatenation
    /// cost about as much as the rest of a request's bookkeeping. Ids up to 15 bytes stay small strings
    /// (no allocation).
    static func format(prefix: String, _ value: Int) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: head.count + 13) { buffer in
                var end = buffer.count
                var rest = UInt(bitPattern: value)
                repeat {
                    end -= 1
                    let digit = UInt8(truncatingIfNeeded: rest % 36)
                    buffer[end] = digit < 10 ? 0x30 + digit : 0x57 + digit
                    rest /= 36
                } while rest > 0
                let start = end - head.count
                for index in 0..<head.count { buffer[start + index] = head[index] }
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
            }
        }
    }
}
