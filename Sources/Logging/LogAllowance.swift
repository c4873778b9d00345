/// How a second's log bytes are shared (issue 23's byte bound, issue 48 point 6's shares). A pure value: `LogBuffer`
/// holds one and tells it the second each line arrives in.
///
/// A line about a request carries its client's address (its `source`): one source may take at most `perSource` bytes
/// of a second and all sources together at most `allSources`, so one client's flood fills its own share (a scan filled
/// the whole 32 KiB a second and pushed out every other client's lines) and the server's own lines (no source) keep
/// the rest. At most `maxSources` sources are told apart in a second; past them, new ones share a single share, so a
/// flood from many addresses cannot grow the table.
struct LogAllowance {
    /// The bytes a second takes in all.
    let bytesPerSecond: Int
    /// The bytes one source may take in a second: an eighth.
    let perSource: Int
    /// The bytes all sources together may take in a second: three quarters, the rest kept for the server's own lines.
    let allSources: Int
    /// Sources told apart in one second.
    let maxSources: Int

    /// The second being counted.
    private(set) var second: Int64 = 0
    /// Bytes taken in it, in all and from sources.
    private(set) var taken = 0
    private var fromSources = 0
    private var bySource: [String: Int] = [:]

    /// An allowance of `bytesPerSecond`, shared as above.
    init(bytesPerSecond: Int, maxSources: Int = 4096) {
        self.bytesPerSecond = bytesPerSecond
        perSource = max(1, bytesPerSecond / 8)
        allSources = max(1, bytesPerSecond * 3 / 4)
        self.maxSources = maxSources
    }

    /// Moves to `second`; true when that is a new second (every count starts again).
    mutating func enter(second: Int64) -> Bool {
        guard second != self.second else { return false }
        self.second = second
        taken = 0
        fromSources = 0
        bySource.removeAll(keepingCapacity: true)
        return true
    }

    /// Takes `bytes` for a line from `source` (nil: the server's own) if the second's bound, the sources' part and the
    /// source's share all have room; false when the line is to be dropped.
    mutating func take(_ bytes: Int, source: String?) -> Bool {
        guard taken + bytes <= bytesPerSecond else { return false }
        if let source {
            guard fromSources + bytes <= allSources else { return false }
            // One hash of the address for a line (one per request, the access log's): the entry is found once.
            var key = source
            var index = bySource.index(forKey: key)
            if index == nil, bySource.count >= maxSources {
                key = ""
                index = bySource.index(forKey: key)
            }
            let mine = index.map { bySource.values[$0] } ?? 0
            guard mine + bytes <= perSource else { return false }
            if let index {
                bySource.values[index] += bytes
            } else {
                bySource[key] = bytes
            }
            fromSources += bytes
        }
        taken += bytes
        return true
    }
}
