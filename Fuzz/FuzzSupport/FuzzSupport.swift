// What every libFuzzer harness in Fuzz/ shares: a checked invariant that survives -O, a small deterministic
// random source for chunk splits, and the call into libFuzzer's driver. Built only with HABITS_FUZZ=1.

/// Like `precondition`, but the message survives `-O` so a crash report says which invariant broke.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// SplitMix64 seeded from the input, so one input always splits the same way (a finding must replay).
public struct SplitGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Seeds from the bytes (FNV-1a), so inputs that differ anywhere split differently.
    public init(seed bytes: some Sequence<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The ways a harness feeds one stream to an incremental parser: whole, in two at `split`, in random chunks of
/// 1...`maxChunk` bytes, and (for short streams) one byte at a time. Each must give the same outcome.
public func feedings(of stream: ArraySlice<UInt8>, split: Int, maxChunk: Int = 64) -> [[ArraySlice<UInt8>]] {
    var result: [[ArraySlice<UInt8>]] = [[stream]]
    let middle = stream.startIndex + min(max(split, 0), stream.count)
    result.append([stream[..<middle], stream[middle...]])
    var generator = SplitGenerator(seed: stream)
    var chunks: [ArraySlice<UInt8>] = []
    var start = stream.startIndex
    while start < stream.endIndex {
        let end = min(stream.endIndex, start + Int.random(in: 1...maxChunk, using: &generator))
        chunks.append(stream[start..<end])
        start = end
    }
    result.append(chunks)
    if stream.count <= 256 { result.append(stream.indices.map { stream[$0...$0] }) }
    return result
}

/// SwiftPM renames an executable's `main` to `<module>_main`, so libFuzzer's own `main` is never linked; each
/// harness calls this from its `@_cdecl("<module>_main")` function instead.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, testOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
