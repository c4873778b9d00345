/// Sums repeated identical access-log lines: per client address, the first answer of a kind (method, path, status,
/// bytes) in a second is logged as usual, the others in that second only counted, and one line with their count
/// follows when the second is over (issue 23: polls re-sent as soon as answered wrote 174 MB of log in 30 s). Like
/// `RefusalLog`, no I/O and no clock: calls carry the second they happen in.
struct AccessLogSummary {
    /// What makes two access-log lines "identical" (the duration and request id aside).
    struct Key: Hashable, Sendable {
        var address: String
        var method: String
        var path: String
        var status: Int
        var bytes: Int
    }

    /// Lines of one kind summed in a second: what the summary line reports.
    struct Summed: Equatable, Sendable {
        var key: Key
        /// Lines counted but not written.
        var count: Int
    }

    /// Kinds tracked in one second; past it lines are written as they come (the log's byte bound still holds).
    let maxKinds: Int
    /// The second being summed.
    private(set) var second: Int64 = .min
    /// Lines seen this second per kind (the first was written).
    private var seen: [Key: Int] = [:]
    /// Lines summed (not written) since the start.
    private(set) var summedTotal = 0

    /// An empty summary.
    init(maxKinds: Int = 4096) { self.maxKinds = maxKinds }

    /// A line of kind `key` in second `second`: whether to write it, and the previous second's sums, if it ended.
    mutating func record(_ key: Key, second: Int64) -> (write: Bool, ended: [Summed]) {
        let ended = second != self.second ? endSecond(startingAt: second) : []
        // One hash of the key (three strings) per line: the index is found once and its value bumped in place.
        if let index = seen.index(forKey: key) {
            seen.values[index] += 1
            summedTotal += 1
            return (false, ended)
        }
        if seen.count < maxKinds { seen[key] = 1 }
        return (true, ended)
    }

    /// Whether lines of the current second are counted but not yet reported.
    var hasPending: Bool { seen.values.contains { $0 > 1 } }

    /// The second is over at `second` (a timer): its sums, to write.
    mutating func flush(second: Int64) -> [Summed] {
        second != self.second ? endSecond(startingAt: second) : []
    }

    private mutating func endSecond(startingAt next: Int64) -> [Summed] {
        let summed = seen.compactMap { $0.value > 1 ? Summed(key: $0.key, count: $0.value - 1) : nil }
        seen.removeAll(keepingCapacity: true)
        second = next
        return summed.sorted { ($0.key.address, $0.key.path) < ($1.key.address, $1.key.path) }
    }
}
