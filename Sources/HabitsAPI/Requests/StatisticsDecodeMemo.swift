import Foundation

/// The entries of the last `/combinedStats` answer decoded, with their bytes: the next answer's entries whose bytes
/// are the same are taken from here instead of being decoded (issue 21 point 2: a refresh's cost grows with what
/// changed; one event upstream changes one user's and one habit's entry of thousands).
///
/// A pure value. An entry's value is a function of its bytes alone, so equal bytes give an equal value and a hit is
/// never stale. It holds only the last answer's entries (and so that answer's bytes): each successful decode replaces
/// it, and a failed one leaves it as it was.
public struct StatisticsDecodeMemo: Sendable {
    /// The bytes of one entry of `userStatistics` or `habitStatistics`, compared and hashed as bytes.
    struct EntryBytes: Hashable, Sendable {
        let bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && lhs.bytes.withUnsafeBytes { left in
                    rhs.bytes.withUnsafeBytes { right in
                        left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
                    }
                }
        }

        /// One pass over the bytes in bulk: `ArraySlice`'s own hash feeds the hasher a byte at a time.
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// One kind of entry in the order of the answer.
    struct Entries<Value: Sendable>: Sendable {
        private(set) var bytes: [EntryBytes] = []
        private(set) var values: [Value] = []
        /// Where each spelling first is; made when first asked (hashing every entry costs as much as the rest of a
        /// decode in which nothing moved).
        private var places: [EntryBytes: Int]?

        var count: Int { bytes.count }
        var isEmpty: Bool { bytes.isEmpty }

        mutating func append(_ entry: EntryBytes, _ value: Value) {
            bytes.append(entry)
            values.append(value)
            places = nil
        }

        /// The first place of an entry spelled `entry`.
        mutating func place(of entry: EntryBytes) -> Int? {
            if places == nil {
                var made: [EntryBytes: Int] = [:]
                made.reserveCapacity(bytes.count)
                for (place, spelling) in bytes.enumerated() where made[spelling] == nil { made[spelling] = place }
                places = made
            }
            return places?[entry]
        }
    }

    var users = Entries<UserStatistics>()
    var habits = Entries<HabitStatistics>()

    /// An empty memo: the first answer is decoded whole.
    public init() {}

    /// How many entries it holds (for tests: the bound is the last answer's entries).
    var count: Int { users.count + habits.count }

    /// Decodes `body`, reusing the previous answer's entries whose bytes it repeats, and keeps `body`'s entries for
    /// the next answer; a body that does not decode throws and leaves the memo unchanged.
    mutating func decode(_ body: [UInt8]) throws(StatisticsJSONDecoder.Failure) -> CombinedStatistics {
        let (statistics, next) = try StatisticsJSONDecoder.decode(body, previous: self)
        self = next
        return statistics
    }
}
