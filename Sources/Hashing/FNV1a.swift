/// FNV-1a (64-bit): the one digest for everything non-adversarial (static-file validators and fingerprints, element
/// ids, data versions, entity tags of rendered pages). Stable across runs and processes, unlike `Hasher`, and needs
/// no dependency. Anyone can make two inputs collide on purpose, so nothing an outsider chooses may be told apart by
/// it alone (keys shared between browsers use SHA-256).
public struct FNV1a: Hashable, Sendable {
    /// FNV's 64-bit offset basis, the usual start.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV's 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    @usableFromInline var state: UInt64

    /// The hash of what was fed so far.
    @inlinable public var value: UInt64 { state }

    /// A hasher starting at `basis`.
    @inlinable public init(basis: UInt64 = FNV1a.offsetBasis) { state = basis }

    /// Feeds one byte.
    @inlinable @inline(__always) public mutating func feed(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* Self.prime
    }

    /// Feeds bytes in order.
    @inlinable public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { feed(byte: byte) }
    }

    /// The hash of `bytes`.
    @inlinable public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.feed(bytes)
        return hasher.value
    }

    /// `value` as 16 lowercase hex digits, zero-padded.
    @inlinable public static func hex(_ value: UInt64) -> String {
        // Written in place: element ids and entity tags spell one or two of these for every item a page shows.
        String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0x0F
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
            }
            return 16
        }
    }
}

extension FNV1a {
    /// Two independent FNV-1a lanes (128 bits), where one 64-bit hash per content is too few: the second starts at
    /// the basis with its halves swapped and sees every byte XOR 0x5A.
    public struct Wide: Hashable, Sendable {
        @usableFromInline var firstLane = FNV1a()
        @usableFromInline var secondLane = FNV1a(basis: 0x8422_2325_cbf2_9ce4)

        /// The first lane: plain FNV-1a.
        @inlinable public var first: UInt64 { firstLane.value }
        /// The second lane.
        @inlinable public var second: UInt64 { secondLane.value }

        /// An empty digest.
        @inlinable public init() {}

        /// Feeds one byte to both lanes.
        @inlinable @inline(__always) public mutating func feed(byte: UInt8) {
            firstLane.feed(byte: byte)
            secondLane.feed(byte: byte ^ 0x5A)
        }

        /// Feeds bytes in order.
        @inlinable public mutating func feed(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { feed(byte: byte) }
        }

        /// Both lanes folded into one 64-bit value.
        @inlinable public var folded: UInt64 { first ^ (second &* 0x9e37_79b9_7f4a_7c15) }
    }
}

extension FNV1a {
    /// A 128-bit digest of a whole buffer from four FNV-1a lanes, each over every fourth byte (the last few bytes go
    /// to the lanes in turn). `Wide` feeds every byte through one chain of multiplications per lane, so a 5 KB page
    /// waits on 5 000 multiplications in a row; four lanes of a quarter each run side by side. For bytes digested whole
    /// and never streamed: entity tags of rendered pages.
    @inlinable public static func striped(_ bytes: [UInt8]) -> (first: UInt64, second: UInt64) {
        var lanes = (
            FNV1a(), FNV1a(basis: 0x8422_2325_cbf2_9ce4), FNV1a(basis: ~FNV1a.offsetBasis),
            FNV1a(basis: 0x2325_cbf2_9ce4_8422)
        )
        bytes.withUnsafeBufferPointer { bytes in
            let whole = bytes.count & ~3
            var index = 0
            while index < whole {
                lanes.0.feed(byte: bytes[index])
                lanes.1.feed(byte: bytes[index + 1])
                lanes.2.feed(byte: bytes[index + 2])
                lanes.3.feed(byte: bytes[index + 3])
                index += 4
            }
            if index < bytes.count { lanes.0.feed(byte: bytes[index]) }
            if index + 1 < bytes.count { lanes.1.feed(byte: bytes[index + 1]) }
            if index + 2 < bytes.count { lanes.2.feed(byte: bytes[index + 2]) }
        }
        let mix: UInt64 = 0x9e37_79b9_7f4a_7c15
        return (lanes.0.value ^ (lanes.1.value &* mix), lanes.2.value ^ (lanes.3.value &* mix))
    }
}
