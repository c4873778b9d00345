import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct NameOrderTests {
    /// Regression (audit): "Léa" sorted after "Leo" and "Émile" after "Eve", because an accented letter counted as a
    /// letter of its own; people read "Léa" as "Lea", so accents only break ties.
    @Test func accentedNamesSortAmongTheirUnaccentedLetters() {
        let names = ["Leo Park", "Lucas", "Eve", "Léa Fontaine", "Émile", "Lena", "Lea"]
        #expect(
            names.sorted { NameOrder.precedes($0, $1) } == [
                "Émile", "Eve", "Lea", "Léa Fontaine", "Lena", "Leo Park", "Lucas",
            ])
    }

    @Test func caseIsIgnoredFirstThenBreaksTies() {
        let names = ["zoe", "de Vries", "Dan", "Amy", "amy"]
        #expect(names.sorted { NameOrder.precedes($0, $1) } == ["Amy", "amy", "Dan", "de Vries", "zoe"])
    }

    @Test func theKeyBreaksExactTies() {
        #expect(NameOrder.precedes("Sam", "Sam", lhsKey: "user1", rhsKey: "user2"))
        #expect(!NameOrder.precedes("Sam", "Sam", lhsKey: "user2", rhsKey: "user1"))
    }
}
