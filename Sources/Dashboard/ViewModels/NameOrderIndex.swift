/// `NameOrder` computed once for a known set of names: each (name, key) pair gets its place in the order, so
/// sorting the same people and habits again costs two dictionary lookups per comparison instead of two
/// locale-free but Unicode-aware string comparisons (which showed as ~17% of the CPU of `/people` under load).
///
/// Pairs it does not know fall back to `NameOrder` itself; both agree, because the places come from `NameOrder`.
struct NameOrderIndex: Sendable {
    private struct Pair: Hashable {
        var name: String
        var key: String
    }

    private let places: [Pair: Int]

    /// No precomputed places: every comparison is `NameOrder`'s.
    static let empty = NameOrderIndex(places: [:])

    private init(places: [Pair: Int]) { self.places = places }

    /// Sorts `pairs` (name, tiebreak key) once with `NameOrder`.
    init(_ pairs: some Sequence<(name: String, key: String)>) {
        let unique = Set(pairs.map { Pair(name: $0.name, key: $0.key) })
        let sorted = unique.sorted { NameOrder.precedes($0.name, $1.name, lhsKey: $0.key, rhsKey: $1.key) }
        var places: [Pair: Int] = [:]
        places.reserveCapacity(sorted.count)
        for (place, pair) in sorted.enumerated() { places[pair] = place }
        self.places = places
    }

    /// Whether `lhs` sorts before `rhs` in `NameOrder`; `lhsKey`/`rhsKey` break exact name ties.
    func precedes(_ lhs: String, _ rhs: String, lhsKey: String = "", rhsKey: String = "") -> Bool {
        if let left = places[Pair(name: lhs, key: lhsKey)], let right = places[Pair(name: rhs, key: rhsKey)] {
            return left < right
        }
        return NameOrder.precedes(lhs, rhs, lhsKey: lhsKey, rhsKey: rhsKey)
    }
}
