/// The series of one kind (habits by name, or people by id) in the trend history, each a `TrendRing` found through a
/// stable name → index table.
///
/// A slot is two samples of its ring, oldest first: the first total recorded in it and the last (issue 47: a slot
/// that kept only its last total lost the growth within the first slot of a range, so a day's chart could say less
/// than the hour's within it). A total that stands still costs nothing more (the second sample repeats the first, no
/// new run). Every ring's newest pair is the history's latest slot. A name absent from a recording gets an unknown sample;
/// a series with no known sample left (absent for a whole ring) is dropped and its ring reused, and at most
/// `maxSeries` are kept, so the table stays bounded even if the upstream's names change.
struct TrendTable: Equatable, Sendable {
    /// Where each name's ring is in `rings`.
    private(set) var index: [String: Int] = [:]
    /// The rings; a dropped series leaves its ring here for the next new name (see `free`).
    private var rings: [TrendRing] = []
    /// Indices of rings whose series was dropped.
    private var free: [Int] = []
    /// Samples per ring.
    let capacity: Int
    /// Series kept at most; a new name beyond it is not tracked.
    let maxSeries: Int

    /// Creates an empty table.
    init(capacity: Int, maxSeries: Int) {
        self.capacity = capacity
        self.maxSeries = max(0, maxSeries)
    }

    /// Series held now.
    var seriesCount: Int { index.count }

    /// Rings allocated (held series plus reusable ones): what the memory bound counts.
    var ringCount: Int { rings.count }

    /// The last total of each slot of `name`, oldest first; nil when it is not tracked.
    func samples(_ name: String) -> [Int?]? {
        index[name].map { Self.halves(rings[$0].samples).last }
    }

    /// The first and the last total of each slot of `name`, oldest first; nil when it is not tracked.
    func slots(_ name: String) -> (first: [Int?], last: [Int?])? {
        index[name].map { Self.halves(rings[$0].samples) }
    }

    /// A ring's samples split into its slots' first and last ones.
    private static func halves(_ samples: [Int?]) -> (first: [Int?], last: [Int?]) {
        let pairs = stride(from: samples.count % 2, to: samples.count, by: 2)
        return (pairs.map { samples[$0] }, pairs.map { samples[$0 + 1] })
    }

    /// The raw samples of `name`, oldest first, two a slot (`TrendRing.unknown` for a gap); empty when not tracked.
    func rawSamples(_ name: String) -> [Int32] {
        index[name].map { rings[$0].rawSamples } ?? []
    }

    /// Samples held by the ring at `place` of `index` (two a slot).
    func count(at place: Int) -> Int { rings[place].count }

    /// Bytes of sample storage held by every ring (`TrendRing.storageBytes`).
    var storageBytes: Int { rings.reduce(0) { $0 + $1.storageBytes } }

    /// The last total of `name` `age` slots before the latest.
    func value(_ name: String, age: Int) -> Int? {
        index[name].flatMap { rings[$0].value(age: 2 * age) }
    }

    /// Every series' last total `age` slots before the latest, where known.
    func values(age: Int) -> [String: Int] {
        index.reduce(into: [:]) { result, entry in
            if let value = rings[entry.value].value(age: 2 * age) { result[entry.key] = value }
        }
    }

    /// Moves every series on by `steps` slots (at least 1): `steps - 1` unknown samples, then the total (unknown when
    /// absent from `totals`). New names start a ring holding just their total.
    mutating func advance(_ totals: [String: Int], steps: Int) {
        var dropped: [String] = []
        for (name, place) in index {
            rings[place].appendUnknown(2 * (steps - 1))
            if let total = totals[name] {
                rings[place].append(TrendRing.sample(total))
                rings[place].append(TrendRing.sample(total))
            } else {
                rings[place].append(TrendRing.unknown)
                rings[place].append(TrendRing.unknown)
                if !rings[place].hasKnownSample { dropped.append(name) }
            }
        }
        for name in dropped { drop(name) }
        addNew(totals)
    }

    /// Replaces every series' last total in the latest slot (its first stays): a later total within that slot.
    mutating func overwrite(_ totals: [String: Int]) {
        var dropped: [String] = []
        for (name, place) in index {
            rings[place].replaceLast(totals[name].map(TrendRing.sample) ?? TrendRing.unknown)
            if totals[name] == nil && !rings[place].hasKnownSample { dropped.append(name) }
        }
        for name in dropped { drop(name) }
        addNew(totals)
    }

    /// Replaces the last total in the latest slot of the series in `changed`: a later total within the latest slot, when every other
    /// series' newest sample is already its total (`TotalsChange`). A name not tracked stays so: it had no room.
    mutating func overwrite(changed: [String: Int]) {
        for (name, total) in changed {
            if let place = index[name] { rings[place].replaceLast(TrendRing.sample(total)) }
        }
    }

    private mutating func addNew(_ totals: [String: Int]) {
        for (name, total) in totals where index[name] == nil && index.count < maxSeries {
            var ring = TrendRing(capacity: 2 * capacity)
            ring.append(TrendRing.sample(total))
            ring.append(TrendRing.sample(total))
            if let reused = free.popLast() {
                rings[reused] = ring
                index[name] = reused
            } else {
                index[name] = rings.count
                rings.append(ring)
            }
        }
    }

    private mutating func drop(_ name: String) {
        guard let place = index.removeValue(forKey: name) else { return }
        rings[place] = TrendRing(capacity: 1)  // its samples are freed now; a new name gets a full ring again
        free.append(place)
    }
}

extension TrendTable {
    /// Every held series with its raw samples, sorted by name so a file's bytes do not depend on hashing.
    var rawSeries: [(name: String, samples: [Int32])] {
        index.sorted { $0.key < $1.key }.map { ($0.key, rings[$0.value].rawSamples) }
    }

    /// A table holding `series` (raw samples, two a slot; at most `maxSeries`; a series with no known sample is left
    /// out), as read from a file.
    init(capacity: Int, maxSeries: Int, series: [(name: String, samples: [Int32])]) {
        self.init(capacity: capacity, maxSeries: maxSeries)
        for (name, samples) in series where index[name] == nil && index.count < self.maxSeries {
            let ring = TrendRing(capacity: 2 * capacity, raw: samples.suffix(samples.count / 2 * 2))
            guard ring.hasKnownSample else { continue }
            index[name] = rings.count
            rings.append(ring)
        }
    }
}

extension TrendTable {
    /// Equal when they hold the same series with the same samples (where each ring sits, and the rings kept for reuse,
    /// are bookkeeping: a table read back from a file has none of those but is the same history).
    static func == (lhs: TrendTable, rhs: TrendTable) -> Bool {
        lhs.capacity == rhs.capacity && lhs.maxSeries == rhs.maxSeries
            && lhs.rawSeries.elementsEqual(rhs.rawSeries) { $0.name == $1.name && $0.samples == $1.samples }
    }
}
