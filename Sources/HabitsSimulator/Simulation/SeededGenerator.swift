/// xoshiro256** (Blackman & Vigna), seeded through SplitMix64: small, fast, and the same sequence on every
/// platform, which `SystemRandomNumberGenerator` cannot promise. `--seed N` relies on it.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a generator whose whole sequence is determined by `seed`.
    public init(seed: UInt64) {
        // SplitMix64 spreads any seed (even 0) over the 256-bit state, which must not be all zeros.
        var mix = seed
        func next() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (next(), next(), next(), next())
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// A uniform double in `0..<1` from the top 53 bits (the usual exact conversion).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.state == rhs.state
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
