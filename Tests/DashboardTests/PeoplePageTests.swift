import HabitsAPI
import HabitsSimulator
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PeoplePageTests {
    @Test func listsEveryoneByNameWithColourAndFollowFlag() {
        let page = PeoplePage(users: TestData.users, settings: Settings(followedUserIDs: ["user2", "ghost"]))
        #expect(page.people.map(\.name) == ["Amy", "Bob", "Cat", "Dan", "zoe"])
        #expect(page.people.map(\.isFollowed) == [false, true, false, false, false])
        #expect(page.people[2].color == .neutral)
        #expect(page.people[3].color == ColorStyle(background: "#1c0533", text: "#ffffff"))
        #expect(page.people[0].path == "/people/user1")
        #expect(page.people[0].imagePath == "/images/user1")
        #expect(page.totalCount == 5)
        #expect(page.followedCount == 1)
    }

    struct FilterCase: CustomTestStringConvertible, Sendable {
        var name: String
        var followedOnly: Bool
        var query: String
        var expected: [String]
        var testDescription: String { name }
    }

    static let filterCases: [FilterCase] = [
        .init(name: "no filter", followedOnly: false, query: "", expected: ["Amy", "Bob", "Cat", "Dan", "zoe"]),
        .init(name: "followed only", followedOnly: true, query: "", expected: ["Bob", "zoe"]),
        .init(name: "query ignores case", followedOnly: false, query: "ZO", expected: ["zoe"]),
        .init(name: "query matches inside names", followedOnly: false, query: "a", expected: ["Amy", "Cat", "Dan"]),
        .init(name: "query is trimmed", followedOnly: false, query: "  bob ", expected: ["Bob"]),
        .init(name: "both filters", followedOnly: true, query: "o", expected: ["Bob", "zoe"]),
        .init(name: "nothing matches", followedOnly: true, query: "Amy", expected: []),
    ]

    @Test(arguments: filterCases)
    func filters(_ example: FilterCase) {
        let page = PeoplePage(
            users: TestData.users, settings: Settings(followedUserIDs: ["user5", "user2"]),
            followedOnly: example.followedOnly, query: example.query)
        #expect(page.people.map(\.name) == example.expected)
    }

    /// Regression (audit): a name search for "zoe" or "lea" missed "Zoë" and "Léa"; people type names without
    /// accents, so the search ignores them as it ignores case.
    @Test(arguments: [("zoe", ["Zoë Adler"]), ("LEA", ["Léa Fontaine"])])
    func nameSearchIgnoresAccents(query: String, expected: [String]) {
        let users = Dictionary(
            uniqueKeysWithValues: ["Zoë Adler", "Léa Fontaine", "Zora Lee"].enumerated().map { index, name in
                ("u\(index)", User(id: "u\(index)", name: name, color: nil, bio: nil))
            })
        let page = PeoplePage(users: users, settings: .default, query: query)
        #expect(page.people.map(\.name) == expected)
    }

    @Test func marksTheActiveUser() {
        var users = TestData.users
        users[TestData.you.id] = TestData.you
        let page = PeoplePage(users: users, settings: .default)
        #expect(page.people.filter { $0.isActiveUser }.map(\.name) == ["Active User"])
    }

    /// Yoga: Bob 5, Cat 5, Amy 2; Run: Amy 9; Swim: Cat 1. Activity: Amy 11, Cat 6, Bob 5; leading: Cat 2 (Yoga
    /// tied, Swim), Amy 1 (Run), Bob 1 (Yoga tied): Amy and Bob tie, so name order decides.
    static let sortStatistics = TestData.statistics([
        "Yoga": ["user2": 5, "user3": 5, "user1": 2], "Run": ["user1": 9], "Swim": ["user3": 1],
    ])

    @Test(arguments: [
        (PeopleSort.name, ["Amy", "Bob", "Cat", "Dan", "zoe"]),
        (PeopleSort.activity, ["Amy", "Cat", "Bob", "Dan", "zoe"]),
        (PeopleSort.leading, ["Cat", "Amy", "Bob", "Dan", "zoe"]),
    ])
    func sortsByNameActivityOrHabitsLedWithTiesByName(sort: PeopleSort, expected: [String]) {
        let page = PeoplePage(users: TestData.users, settings: .default, sort: sort, statistics: Self.sortStatistics)
        #expect(page.people.map(\.name) == expected)
        #expect(page.sort == sort)
    }

    @Test func sortCombinesWithTheFilters() {
        let page = PeoplePage(
            users: TestData.users, settings: Settings(followedUserIDs: ["user1", "user3", "user5"]), followedOnly: true,
            query: "a", sort: .activity, statistics: Self.sortStatistics)
        #expect(page.people.map(\.name) == ["Amy", "Cat"])
    }

    @Test func sortKeysArePrecomputedOnTheCards() {
        let page = PeoplePage(users: TestData.users, settings: .default, statistics: Self.sortStatistics)
        #expect(page.people.map(\.totalCount) == [11, 5, 6, 0, 0])
        #expect(page.people.map(\.leadingCount) == [1, 1, 2, 0, 0])
    }

    /// The sort of packed words and the comparison sort it stands in for give one order: many ties, keys from 0 to
    /// the largest that packs, and a key past it (the comparison sort then does the work).
    @Test func theActivitySortIsTheComparisonSortWithTiesInNameOrder() {
        var generator = SeededGenerator(seed: 21)
        let positions = (0..<2_000).filter { _ in Int.random(in: 0..<3, using: &generator) > 0 }
        var keys = (0..<2_000).map { _ in
            Snapshot.PersonKeys(totalCount: Int.random(in: 0..<40, using: &generator), leadingCount: 0)
        }
        keys[positions[7]].totalCount = Int(UInt32.max)
        func comparison(_ keys: [Snapshot.PersonKeys]) -> [Int] {
            positions.sorted { a, b in
                keys[a].totalCount != keys[b].totalCount ? keys[a].totalCount > keys[b].totalCount : a < b
            }
        }
        #expect(PeoplePage.sorted(positions, of: keys, by: .activity) == comparison(keys))
        keys[positions[8]].totalCount = Int(UInt32.max) + 1
        #expect(PeoplePage.sorted(positions, of: keys, by: .activity) == comparison(keys))
        #expect(PeoplePage.sorted(positions, of: keys, by: .activity).prefix(2) == [positions[8], positions[7]])
    }

    @Test func followedCountIsTheFollowedPeopleTheDataKnows() {
        let settings = Settings(followedUserIDs: ["user1", "user3", "nobody", "user3"])
        #expect(PeoplePage(users: TestData.users, settings: settings).followedCount == 2)
    }

    @Test(arguments: [(nil, PeopleSort.name), ("", .name), ("activity", .activity), ("leading", .leading)])
    func parsesTheSortParameter(value: String?, expected: PeopleSort) {
        #expect(PeopleSort.parse(value) == expected)
    }

    @Test(arguments: ["Name", "count", "name;", "1"])
    func rejectsAnUnknownSort(value: String) {
        #expect(PeopleSort.parse(value) == nil)
    }
}
