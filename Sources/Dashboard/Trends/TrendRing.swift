/// One series of the trend history: a fixed-capacity ring of samples, one per slot, the newest being the latest
/// recorded slot.
///
/// Its storage is allocated once at `capacity` and never grows, so a series costs `capacity × 4` bytes of samples
/// (plus one array header) however long the server runs. `Int32` halves the cost of `Int`; counts are clamped into
/// `0...Int32.max`, and `Int32.min` marks a slot with no sample (nothing was recorded then).
struct TrendRing: Equatable, Sendable {
    /// The sample of a slot in which nothing was recorded.
    static let unknown = Int32.min

    /// The samples; always exactly `capacity` long.
    private(set) var storage: [Int32]
    /// Index in `storage` of the oldest sample.
    private var head = 0
    /// Samples held, at most `capacity`.
    private(set) var count = 0

    /// Samples kept at most.
    var capacity: Int { storage.count }

    /// Creates an empty ring of `capacity` (at least 1) samples.
    init(capacity: Int) {
        storage = Array(repeating: Self.unknown, count: max(1, capacity))
    }

    /// Clamps a count into what a sample can hold (negative counts are 0; the sentinel is never produced).
    static func sample(_ value: Int) -> Int32 {
        Int32(clamping: max(0, value))
    }

    /// Adds a sample as the newest, forgetting the oldest when full.
    mutating func append(_ sample: Int32) {
        if count < capacity {
            storage[(head + count) % capacity] = sample
            count += 1
        } else {
            storage[head] = sample
            head = (head + 1) % capacity
        }
    }

    /// Adds `slots` unknown samples (at most a ring's worth: older ones would be forgotten anyway).
    mutating func appendUnknown(_ slots: Int) {
        for _ in 0..<min(max(0, slots), capacity) { append(Self.unknown) }
    }

    /// Replaces the newest sample (a later value within the same slot).
    mutating func replaceLast(_ sample: Int32) {
        guard count > 0 else { return append(sample) }
        storage[(head + count - 1) % capacity] = sample
    }

    /// The sample `age` slots before the newest (0 is the newest); nil when not held or unknown.
    func value(age: Int) -> Int? {
        guard age >= 0, age < count else { return nil }
        let sample = storage[(head + count - 1 - age) % capacity]
        return sample == Self.unknown ? nil : Int(sample)
    }

    /// Every held sample, oldest first, nil where unknown.
    var samples: [Int?] {
        (0..<count).map { offset in
            let sample = storage[(head + offset) % capacity]
            return sample == Self.unknown ? nil : Int(sample)
        }
    }

    /// Whether any held sample is known (a series with none has nothing left to draw and is dropped).
    var hasKnownSample: Bool {
        (0..<count).contains { storage[(head + $0) % capacity] != Self.unknown }
    }
}

extension TrendRing {
    /// The held samples as stored, oldest first (`unknown` where nothing was recorded): what the history file keeps.
    var rawSamples: [Int32] {
        (0..<count).map { storage[(head + $0) % capacity] }
    }

    /// A ring of `capacity` holding `raw` (oldest first; only the newest `capacity` are kept), as read from a file.
    init(capacity: Int, raw: some Collection<Int32>) {
        self.init(capacity: capacity)
        for sample in raw.suffix(self.capacity) { append(sample) }
    }
}
