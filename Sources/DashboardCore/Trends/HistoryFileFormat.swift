/// The bytes of `history.bin` (issue 22 point 1): a small binary format, so its size follows from the bounds
/// (4 bytes a sample) and a month of history for the built-in data stays a few hundred kilobytes.
///
/// Little-endian throughout: the magic `HABITSH\n`, the format (UInt32), the upstream (string), then per tier its
/// spacing and capacity (UInt32 each), its latest slot (a flag byte and an Int64), and the habits' and people's
/// series (a count, then per series its name and its samples as a count and Int32s, two a slot, its first and last
/// total, `Int32.min` for a gap); then the rank changes (a count, then kind, habit, person id and name, your rank or
/// -1, second, and the people a lead change names besides its person: a count, then id and name each); last a 64-bit
/// `ContentDigest` of every byte before it, so a file cut short or damaged is caught, never half-read. A string is a
/// UInt32 length and its UTF-8 bytes. Format 1 (before issue 47: one sample a slot, its last total, and no people per
/// change) is still read, each slot as first = last and each change naming nobody else.
enum HistoryFileFormat {
    /// The format written now; bump it with any change of layout or of the standard tiers.
    static let currentFormat: UInt32 = 2
    /// The oldest format still read: 1, one sample a slot and no people per rank change.
    static let oldestFormat: UInt32 = 1
    /// The first bytes of every history file.
    static let magic = Array("HABITSH\n".utf8)

    /// Why a file cannot be used.
    enum Rejection: Error, Equatable, CustomStringConvertible {
        /// Not this format's bytes, cut short, or the digest does not match.
        case corrupt(String)
        /// Another format (or other tiers) than this build writes.
        case format(UInt32)
        /// Written for another upstream.
        case foreignUpstream(String)

        var description: String {
            switch self {
            case .corrupt(let detail): "the file is corrupt (\(detail))"
            case .format(let format):
                "the file has format \(format), this build reads \(HistoryFileFormat.currentFormat)"
            case .foreignUpstream(let upstream): "the file is from another upstream (\(upstream))"
            }
        }
    }

    // MARK: - Writing

    /// The bytes of `record` for `upstream`.
    static func encode(_ record: HistoryRecord, upstream: String) -> [UInt8] {
        var out = Writer()
        out.bytes.reserveCapacity(size(of: record, upstream: upstream))
        out.bytes += magic
        out.u32(currentFormat)
        out.string(upstream)
        out.u32(UInt32(record.history.tiers.count))
        for tier in record.history.tiers {
            out.u32(UInt32(tier.spacing))
            out.u32(UInt32(tier.capacity))
            out.bytes.append(tier.latestSlot == nil ? 0 : 1)
            out.i64(Int64(tier.latestSlot ?? 0))
            for table in [tier.habits, tier.people] {
                // One series' samples at a time (issue 23: the whole table's, 22 MB for 4,096 people, were a copy).
                out.u32(UInt32(table.seriesCount))
                for name in table.index.keys.sorted() {
                    let samples = table.rawSamples(name)
                    out.string(name)
                    out.u32(UInt32(samples.count))
                    for sample in samples { out.u32(UInt32(bitPattern: sample)) }
                }
            }
        }
        let changes = record.moments.changes
        out.u32(UInt32(changes.count))
        for change in changes {
            out.bytes.append(change.kind.rawValue)
            out.string(change.habit)
            out.string(change.userID)
            out.string(change.userName)
            out.u32(UInt32(bitPattern: Int32(clamping: change.yourRank ?? -1)))
            out.i64(Int64(change.second))
            out.u32(UInt32(change.others.count))
            for person in change.others {
                out.string(person.id)
                out.string(person.name)
            }
        }
        var digest = ContentDigest()
        for byte in out.bytes { digest.feed(byte: byte) }
        out.i64(Int64(bitPattern: digest.value))
        return out.bytes
    }

    /// The bytes `encode` writes for `record`, so its buffer is allocated once.
    static func size(of record: HistoryRecord, upstream: String) -> Int {
        var bytes = magic.count + 4 + 4 + upstream.utf8.count + 4 + 4 + 8
        for tier in record.history.tiers {
            bytes += 4 + 4 + 1 + 8
            for table in [tier.habits, tier.people] {
                bytes += 4
                for (name, place) in table.index { bytes += 4 + name.utf8.count + 4 + 4 * table.count(at: place) }
            }
        }
        for change in record.moments.changes {
            bytes += 1 + 4 + change.habit.utf8.count + 4 + change.userID.utf8.count + 4 + change.userName.utf8.count
            bytes += 4 + 8 + 4
            for person in change.others { bytes += 4 + person.id.utf8.count + 4 + person.name.utf8.count }
        }
        return bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func u32(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }

        mutating func i64(_ value: Int64) {
            let bits = UInt64(bitPattern: value)
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }

        mutating func string(_ text: String) {
            u32(UInt32(text.utf8.count))
            bytes += text.utf8
        }
    }

    // MARK: - Reading

    /// Decodes and checks `bytes`: the magic, the digest, the format and tiers, the upstream, every count against
    /// what is left. `maxSeries` bounds each table as the live history does.
    static func decode(_ bytes: [UInt8], upstream: String, maxSeries: Int = 4096) throws(Rejection) -> HistoryRecord {
        guard bytes.count >= magic.count + 12, Array(bytes.prefix(magic.count)) == magic else {
            throw .corrupt("not a history file")
        }
        var digest = ContentDigest()
        for byte in bytes.dropLast(8) { digest.feed(byte: byte) }
        var tail = Reader(bytes: bytes, offset: bytes.count - 8)
        guard let stored = tail.i64(), UInt64(bitPattern: stored) == digest.value else {
            throw .corrupt("its digest does not match its content")
        }
        var input = Reader(bytes: Array(bytes.dropLast(8)), offset: magic.count)
        guard let format = input.u32() else { throw .corrupt("no format") }
        guard (oldestFormat...currentFormat).contains(format) else { throw .format(format) }
        let perSlot = format >= 2 ? 2 : 1
        guard let fileUpstream = input.string() else { throw .corrupt("no upstream") }
        guard fileUpstream == upstream else { throw .foreignUpstream(fileUpstream) }
        let standard = TrendHistory.standardTiers
        guard let tierCount = input.u32(), tierCount == standard.count else { throw .format(format) }
        var tiers: [TrendTier] = []
        for expected in standard {
            guard let spacing = input.u32(), let capacity = input.u32(), let flag = input.byte(),
                let latest = input.i64()
            else { throw .corrupt("a tier is cut short") }
            guard spacing == expected.spacing, capacity == expected.capacity, flag <= 1 else { throw .format(format) }
            var tables: [TrendTable] = []
            for _ in 0..<2 {
                guard let count = input.u32() else { throw .corrupt("a table is cut short") }
                var series: [(name: String, samples: [Int32])] = []
                for _ in 0..<count {
                    guard let name = input.string(), let samples = input.samples(limit: perSlot * Int(capacity)),
                        samples.count % perSlot == 0
                    else { throw .corrupt("a series is cut short or too long") }
                    series.append((name, perSlot == 2 ? samples : samples.flatMap { [$0, $0] }))
                }
                tables.append(TrendTable(capacity: Int(capacity), maxSeries: maxSeries, series: series))
            }
            tiers.append(
                TrendTier(
                    spacing: Int(spacing), capacity: Int(capacity), habits: tables[0], people: tables[1],
                    latestSlot: flag == 1 ? Int(latest) : nil))
        }
        guard let changeCount = input.u32() else { throw .corrupt("no rank changes") }
        var changes: [RankChange] = []
        for _ in 0..<changeCount {
            guard let raw = input.byte(), let kind = RankChange.Kind(rawValue: raw), let habit = input.string(),
                let userID = input.string(), let userName = input.string(), let rank = input.u32(),
                let second = input.i64()
            else { throw .corrupt("a rank change is cut short") }
            var others: [RankChange.Person] = []
            if format >= 2 {
                // Each person takes 8 bytes at least (two string lengths): a count beyond what is left is damage.
                guard let count = input.u32(), Int(count) * 8 <= input.bytes.count - input.offset else {
                    throw .corrupt("a rank change is cut short")
                }
                for _ in 0..<count {
                    guard let id = input.string(), let name = input.string() else {
                        throw .corrupt("a rank change is cut short")
                    }
                    others.append(RankChange.Person(id: id, name: name))
                }
            }
            let yourRank = Int32(bitPattern: rank)
            changes.append(
                RankChange(
                    kind: kind, habit: habit, userID: userID, userName: userName,
                    yourRank: yourRank < 0 ? nil : Int(yourRank), second: Int(second), others: others))
        }
        guard input.offset == input.bytes.count else { throw .corrupt("bytes after the end") }
        return HistoryRecord(history: TrendHistory(restored: tiers), moments: MomentLog(changes: changes))
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u32() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
            offset += 4
            return value
        }

        mutating func i64() -> Int64? {
            guard bytes.count - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
            offset += 8
            return Int64(bitPattern: value)
        }

        /// A string of at most 64 KiB (a name; anything longer is damage).
        mutating func string() -> String? {
            guard let length = u32(), length <= 65_536, bytes.count - offset >= Int(length) else { return nil }
            defer { offset += Int(length) }
            return String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self)
        }

        /// A count of at most `limit` samples and the samples.
        mutating func samples(limit: Int) -> [Int32]? {
            guard let count = u32(), count <= limit, bytes.count - offset >= Int(count) * 4 else { return nil }
            return (0..<Int(count)).map { _ in Int32(bitPattern: u32() ?? 0) }
        }
    }
}
