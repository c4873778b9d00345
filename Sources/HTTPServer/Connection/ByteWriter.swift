/// Writes bytes through a raw pointer into memory its caller sized for the worst case: how response heads
/// and access-log lines are built. An `Array` or `String` append costs 20–40 ns of bookkeeping (uniqueness,
/// capacity, UTF-8 checks) and a head or log line takes a dozen of them; a pointer write costs a copy.
///
/// Invariant: the caller's buffer holds every byte written (each writer's caller computes that bound).
struct ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    /// Writes into `buffer`, from its start.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
    }

    /// The bytes of a literal.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// The UTF-8 bytes of `text`.
    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Some bytes.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// One byte.
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// The decimal digits of a non-negative `value` (at most 20 bytes).
    mutating func appendDecimal(_ value: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        var index = count + digits
        repeat {
            index -= 1
            base[index] = 0x30 + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
        count += digits
    }

    /// The bytes of `text` if every one of them passes `allowed`; false (with nothing written) otherwise.
    /// Inlined so the check is not a function call per byte.
    @inline(__always)
    mutating func append(_ text: String, ifEvery allowed: (UInt8) -> Bool) -> Bool {
        let start = count
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes {
                guard allowed(byte) else { return false }
                base[count] = byte
                count += 1
            }
            return true
        }
        if let copied {
            if !copied { count = start }
            return copied
        }
        for byte in text.utf8 {
            guard allowed(byte) else {
                count = start
                return false
            }
            base[count] = byte
            count += 1
        }
        return true
    }
}
