import Testing

@testable import Dashboard

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

    @Test func unknownNamesFallBackToNameOrder() {
        let index = NameOrderIndex(Self.pairs)
        #expect(index.precedes("Adam", "Eve", lhsKey: "x", rhsKey: "c"))
        #expect(!index.precedes("Zed", "Adam"))
    }
}
