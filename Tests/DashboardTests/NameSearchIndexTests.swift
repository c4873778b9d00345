import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The People search, indexed once per snapshot (issue 23).
@Suite struct NameSearchIndexTests {
    let names = ["Zoë Ångström", "Chloé Martin", "Max Mustermann", "Ana", "Bo", "José Álvarez", "MAXIMILIAN"]

    /// What the search matched before the index: Foundation's case- and accent-blind `range(of:)` over every name.
    func scan(_ query: String) -> [Int] {
        guard !query.isEmpty else { return Array(names.indices) }
        return names.indices.filter {
            names[$0].range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    @Test(arguments: [
        "", "zoe", "ZOË", "angst", "ström", "max", "ax", "o", "é", "mustermann x", "nobody", "a", "jose a",
    ])
    func theIndexFindsWhatAScanOfEveryNameFinds(query: String) {
        #expect(NameSearchIndex(names: names).matches(query) == scan(query))
    }

    /// A large People: thousands of names, one query, the same answer as the scan.
    @Test func aLargePeopleAgreesWithTheScan() {
        let many = (0..<5000).map { "Person \($0) Nümber \($0 % 97)" }
        let index = NameSearchIndex(names: many)
        let expected = many.indices.filter {
            many[$0].range(of: "number 42", options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
        #expect(index.matches("number 42") == expected)
        #expect(!expected.isEmpty)
    }

    @Test func queriesAreNormalisedBeforeTheyBecomeKeys() {
        #expect(PeoplePage.normalized("  zoe \t  ang  ") == "zoe ang")
        #expect(PeoplePage.normalized("Chloe\u{301}") == "Chloé")
        #expect(PeoplePage.normalized(String(repeating: "a", count: 500)).count == PeoplePage.maxQueryLength)
    }
}
