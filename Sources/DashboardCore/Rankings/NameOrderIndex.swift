/// `NameOrder` computed once for a known set of names: each (name, key) pair gets its place in the order, so
/// sorting the same people and habits again costs two dictionary lookups per comparison instead of two
/// locale-free but Unicode-aware string comparisons (which showed as ~17% of the CPU of `/people` under load).
///
/// Pairs it does not know fall back to `NameOrder` itself; both agree, because the places come from `NameOrder`.
public struct NameOrderIndex: Sendable {
    private struct Pair: Hashable {
        var name: String
        var key: String
    }

    private let places: [Pair: Int]

    /// No precomputed places: every comparison is `NameOrder`'s.
    public static let empty = NameOrderIndex(places: [:])

    private init(places: [Pair: Int]) { self.places = places }

    /// Sorts `pairs` (name, tiebreak key) once with `NameOrder`.
    ///
    /// Foundation's compare was most of a first snapshot build at 100 times the built-in data (issue 21 point 4), so
    /// two ASCII names (nearly all names) are compared by their bytes with A–Z lowered, which is what `NameOrder`'s
    /// case- and accent-insensitive compare does for ASCII (`NameOrderIndexTests` checks every pair of a set of
    /// names both ways); any other pair is `NameOrder`'s.
    init(_ pairs: some Sequence<(name: String, key: String)>) {
        var unique = Set<Pair>()
        for pair in pairs { unique.insert(Pair(name: pair.name, key: pair.key)) }
        let items = unique.map { (pair: $0, folded: Self.asciiFolded($0.name)) }
        let sorted = items.sorted { a, b in
            if let left = a.folded, let right = b.folded {
                if left != right { return left.lexicographicallyPrecedes(right) }
                if a.pair.name != b.pair.name { return a.pair.name < b.pair.name }
                return a.pair.key < b.pair.key
            }
            return NameOrder.precedes(a.pair.name, b.pair.name, lhsKey: a.pair.key, rhsKey: b.pair.key)
        }
        var places: [Pair: Int] = [:]
        places.reserveCapacity(sorted.count)
        for (place, item) in sorted.enumerated() { places[item.pair] = place }
        self.places = places
    }

    /// `name`'s bytes with A–Z lowered when it is all ASCII, else nil.
    static func asciiFolded(_ name: String) -> [UInt8]? {
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            folded.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return folded
    }

    /// `name`'s (with tiebreak `key`) place in the order, when it was among the pairs given.
    public func place(_ name: String, key: String = "") -> Int? { places[Pair(name: name, key: key)] }

    /// `items` in the order, each (`name`, `key`) looked up once: a sort of places rather than two look-ups per
    /// comparison (which, for the users at 100 times the built-in data, cost as much as building the index). When
    /// one is not among the pairs given, every comparison is `precedes`'.
    func sorted<Item>(
        _ items: some Collection<Item>, name: (Item) -> String, key: (Item) -> String = { _ in "" }
    ) -> [Item] {
        var placed: [(place: Int, item: Item)] = []
        placed.reserveCapacity(items.count)
        for item in items {
            guard let place = places[Pair(name: name(item), key: key(item))] else {
                return items.sorted { precedes(name($0), name($1), lhsKey: key($0), rhsKey: key($1)) }
            }
            placed.append((place, item))
        }
        placed.sort { $0.place < $1.place }
        return placed.map(\.item)
    }

    /// Whether `lhs` sorts before `rhs` in `NameOrder`; `lhsKey`/`rhsKey` break exact name ties.
    public func precedes(_ lhs: String, _ rhs: String, lhsKey: String = "", rhsKey: String = "") -> Bool {
        if let left = places[Pair(name: lhs, key: lhsKey)], let right = places[Pair(name: rhs, key: rhsKey)] {
            return left < right
        }
        return NameOrder.precedes(lhs, rhs, lhsKey: lhsKey, rhsKey: rhsKey)
    }
}
