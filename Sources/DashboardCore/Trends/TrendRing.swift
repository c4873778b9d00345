/// One series of the trend history: the last `capacity` samples, one per slot, the newest being the latest recorded
/// slot.
///
/// Totals change far less often than slots pass (a person logs a few times a day; a slot is 10 s, 5 min or 1 h), so
/// a ring holds its samples as runs: the slot where a value starts and the value, 8 bytes a change, nothing for a
/// slot that repeats the one before (issue 23: 4,096 people's dense rings, 22.5 MB, and their copies while a write
/// held them were a third of the dashboard's peak with a 45 000-person upstream). A ring whose runs would take more
/// than dense samples (`Int32`, 4 bytes a slot) turns dense, so no series ever costs more than `capacity × 4` bytes
/// plus an array header. Counts are clamped into `0...Int32.max`; `Int32.min` marks a slot with no sample.
///
/// Only a sample that differs from the one before touches the storage, so a ring shared with a pending write (the
/// history file's) is copied only when its value changes.
struct TrendRing: Sendable {
    /// The sample of a slot in which nothing was recorded.
    static let unknown = Int32.min

    /// A value and the slot it starts at (counted by `next`, wrapping); it lasts until the next run starts.
    struct Run: Equatable, Sendable {
        var start: UInt32
        var value: Int32
    }

    private enum Storage: Sendable {
        /// Oldest first; the first run starts at or before the oldest held slot.
        case runs([Run])
        /// Exactly `capacity` samples; `head` is the index of the oldest.
        case dense([Int32], head: Int)
    }

    private var storage: Storage = .runs([])
    /// The slot number the next sample gets (wrapping; only differences within a ring's reach are ever used).
    private var next: UInt32 = 0
    /// Samples held, at most `capacity`.
    private(set) var count = 0
    /// Samples kept at most.
    let capacity: Int

    /// Creates an empty ring of `capacity` (at least 1) samples; nothing is allocated until a sample comes.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Clamps a count into what a sample can hold (negative counts are 0; the sentinel is never produced).
    static func sample(_ value: Int) -> Int32 {
        Int32(clamping: max(0, value))
    }

    /// Bytes of sample storage held now (runs or dense samples, without the array header): at most `capacity × 4`.
    var storageBytes: Int {
        switch storage {
        case .runs(let runs): runs.count * MemoryLayout<Run>.stride
        case .dense(let samples, _): samples.count * MemoryLayout<Int32>.stride
        }
    }

    /// Adds a sample as the newest, forgetting the oldest when full.
    mutating func append(_ sample: Int32) {
        let slot = next
        let wasFull = count == capacity
        next &+= 1
        count = min(count + 1, capacity)
        switch storage {
        case .dense(var samples, var head):
            if !wasFull {
                samples[(head + count - 1) % capacity] = sample
            } else {
                samples[head] = sample
                head = (head + 1) % capacity
            }
            storage = .dense([], head: 0)  // keeps `samples` unique while it changes
            storage = .dense(samples, head: head)
        case .runs(var runs):
            let stale = runs.count >= 2 && age(of: runs[1]) >= count - 1
            guard runs.last?.value != sample || stale else { return }
            storage = .runs([])  // keeps `runs` unique while it changes
            if runs.last?.value != sample { runs.append(Run(start: slot, value: sample)) }
            // A run that ended before the oldest held slot is forgotten (at most one per new sample).
            while runs.count >= 2 && age(of: runs[1]) >= count - 1 { runs.removeFirst() }
            storage = runs.count > capacity / 2 ? Self.dense(runs, self) : .runs(runs)
        }
    }

    /// Adds `slots` unknown samples (at most a ring's worth: older ones would be forgotten anyway).
    mutating func appendUnknown(_ slots: Int) {
        for _ in 0..<min(max(0, slots), capacity) { append(Self.unknown) }
    }

    /// Replaces the newest sample (a later value within the same slot).
    mutating func replaceLast(_ sample: Int32) {
        guard count > 0 else { return append(sample) }
        switch storage {
        case .dense(var samples, let head):
            storage = .dense([], head: 0)
            samples[(head + count - 1) % capacity] = sample
            storage = .dense(samples, head: head)
        case .runs(var runs):
            guard let last = runs.last, last.value != sample else { return }
            storage = .runs([])
            if age(of: last) > 0 {
                runs.append(Run(start: next &- 1, value: sample))
            } else if runs.count >= 2 && runs[runs.count - 2].value == sample {
                runs.removeLast()  // the run before it goes on instead
            } else {
                runs[runs.count - 1].value = sample
            }
            storage = runs.count > capacity / 2 ? Self.dense(runs, self) : .runs(runs)
        }
    }

    /// The sample `age` slots before the newest (0 is the newest); nil when not held or unknown.
    func value(age: Int) -> Int? {
        guard age >= 0, age < count else { return nil }
        let sample: Int32
        switch storage {
        case .dense(let samples, let head):
            sample = samples[(head + count - 1 - age) % capacity]
        case .runs(let runs):
            // The newest run that started at or before that slot; runs are few, newest last.
            guard let run = runs.last(where: { self.age(of: $0) >= age }) else { return nil }
            sample = run.value
        }
        return sample == Self.unknown ? nil : Int(sample)
    }

    /// Every held sample, oldest first, nil where unknown.
    var samples: [Int?] {
        rawSamples.map { $0 == Self.unknown ? nil : Int($0) }
    }

    /// Whether any held sample is known (a series with none has nothing left to draw and is dropped).
    var hasKnownSample: Bool {
        switch storage {
        case .dense(let samples, let head):
            (0..<count).contains { samples[(head + $0) % capacity] != Self.unknown }
        case .runs(let runs):
            runs.indices.contains { index in
                runs[index].value != Self.unknown
                    && (index + 1 == runs.count || age(of: runs[index + 1]) < count - 1)
            }
        }
    }

    /// How many slots before the newest `run` starts.
    private func age(of run: Run) -> Int {
        Int((next &- 1) &- run.start)
    }

    /// The held samples of `runs` as a dense ring of `ring.capacity`, oldest at 0.
    private static func dense(_ runs: [Run], _ ring: TrendRing) -> Storage {
        var samples = ring.raw(runs)
        samples += repeatElement(unknown, count: ring.capacity - samples.count)
        return .dense(samples, head: 0)
    }

    /// The held samples of `runs`, oldest first.
    private func raw(_ runs: [Run]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        var index = 0
        for age in stride(from: count - 1, through: 0, by: -1) {
            while index + 1 < runs.count && self.age(of: runs[index + 1]) >= age { index += 1 }
            out.append(runs.isEmpty ? Self.unknown : runs[index].value)
        }
        return out
    }
}

extension TrendRing: Equatable {
    /// Equal when they keep as many samples and hold the same ones (how they are stored is bookkeeping).
    static func == (lhs: TrendRing, rhs: TrendRing) -> Bool {
        lhs.capacity == rhs.capacity && lhs.rawSamples == rhs.rawSamples
    }
}

extension TrendRing {
    /// The held samples as stored, oldest first (`unknown` where nothing was recorded): what the history file keeps.
    var rawSamples: [Int32] {
        switch storage {
        case .dense(let samples, let head): (0..<count).map { samples[(head + $0) % capacity] }
        case .runs(let runs): raw(runs)
        }
    }

    /// A ring of `capacity` holding `raw` (oldest first; only the newest `capacity` are kept), as read from a file.
    init(capacity: Int, raw: some Collection<Int32>) {
        self.init(capacity: capacity)
        for sample in raw.suffix(self.capacity) { append(sample) }
    }
}
