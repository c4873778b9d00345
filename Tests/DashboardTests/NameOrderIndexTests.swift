import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct NameOrderIndexTests {
    static let pairs: [(name: String, key: String)] = [
        ("Leo Park", "a"), ("Lucas", "b"), ("Eve", "c"), ("Léa Fontaine", "d"), ("Émile", "e"), ("lea", "f"),
        ("Lea", "g"), ("Sam", "user2"), ("Sam", "user1"), ("de Vries", "h"), ("Dan", "i"),
    ]

    @Test func agreesWithNameOrderOnEveryPair() {
        let index = NameOrderIndex(Self.pairs)
        for left in Self.pairs {
            for right in Self.pairs {
                #expect(
                    index.precedes(left.name, right.name, lhsKey: left.key, rhsKey: right.key)
                        == NameOrder.precedes(left.name, right.name, lhsKey: left.key, rhsKey: right.key),
                    "\(left) \(right)")
            }
        }
    }

    /// The ASCII fast path of the index's sort: every printable ASCII character (the ones between Z and a
    /// included, where lowering and uppering disagree) and names with spaces, quotes and markup.
    @Test func sortsASCIINamesAsNameOrderDoes() {
        var names = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        names += ["de Vries", "De Vries", "Devries", "O'Connor", "Oconnor", "a_b", "a-b", "aB", "Ab", "ab", "a b"]
        names += ["Ada <b>Bold</b> Lovelace", "Ada & Co", "Zed", "zed", "ZED", "", "Zoë", "zoe", "Ångström"]
        let pairs = names.map { (name: $0, key: "") }
        let index = NameOrderIndex(pairs)
        var disagreements: [String] = []
        for left in names {
            for right in names where index.precedes(left, right) != NameOrder.precedes(left, right) {
                disagreements.append("\(left) \(right)")
            }
        }
        #expect(disagreements.isEmpty)
        #expect(index.place("Zed") != nil && index.place("Zed")! < index.place("zed")!)
    }

    /// Ranking sorts by places when every name has one, by `NameOrder` otherwise: the same order either way.
    @Test func aRankingOrdersTheSameWithAndWithoutTheIndex() {
        let counts = Self.pairs.enumerated().map { index, pair in
            UserCount(user: User(id: pair.key, name: pair.name), count: index % 3 + 1)
        }
        let index = NameOrderIndex(Self.pairs.map { (name: $0.name, key: $0.key) } + [("Active User", "b")])
        let indexed = Ranking(userCounts: counts, activeUserID: "b", order: index)
        let plain = Ranking(userCounts: counts, activeUserID: "b")
        #expect(indexed == plain)
        #expect(indexed.entries.map(\.count) == indexed.entries.map(\.count).sorted(by: >))
        #expect(indexed.entries.first { $0.user.id == "b" }?.name == "Active User")
    }

    /// Sorting by places is `NameOrder`'s sort, and so is the fallback when one item has no place.
    @Test(arguments: [false, true])
    func sortingByPlacesIsNameOrdersSort(withAnUnknownItem: Bool) {
        let index = NameOrderIndex(Self.pairs)
        let items = Self.pairs.reversed() + (withAnUnknownItem ? [(name: "Adam", key: "x")] : [])
        let expected = items.sorted { NameOrder.precedes($0.name, $1.name, lhsKey: $0.key, rhsKey: $1.key) }
        let sorted = index.sorted(items, name: \.name, key: \.key)
        #expect(sorted.map { "\($0.name)/\($0.key)" } == expected.map { "\($0.name)/\($0.key)" })
    }

    @Test func unknownNamesFallBackToNameOrder() {
        let index = NameOrderIndex(Self.pairs)
        #expect(index.precedes("Adam", "Eve", lhsKey: "x", rhsKey: "c"))
        #expect(!index.precedes("Zed", "Adam"))
    }
}
