import HabitsAPI
import Synchronization
import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Cards are rendered once per content (issue 21 point 2): a new version in which one person changed renders that
/// person's card and copies the others. Renders are counted through the cache's hook, never timed.
@Suite struct CardCacheTests {
    /// A renderer whose card cache counts what it renders.
    final class Renders: Sendable {
        private let keys = Mutex<[CardKey]>([])
        func append(_ key: CardKey) { keys.withLock { $0.append(key) } }
        func withLock<T>(_ body: (inout [CardKey]) -> T) -> T { keys.withLock { body(&$0) } }
    }

    func renderer(budget: Int = CardCache.defaultBudget) throws -> (PageRenderer, Renders) {
        let rendered = Renders()
        let hook: @Sendable (CardKey) -> Void = { key in rendered.append(key) }
        let renderer = PageRenderer(
            templates: try TemplateLibrary(directory: Fixture.templatesDirectory, strict: true),
            cards: CardCache(budget: budget, onRender: hook))
        return (renderer, rendered)
    }

    func peopleHTML(_ users: [String: User], _ renderer: PageRenderer, settings: Settings = .default) throws -> String {
        let page = PeoplePage(users: users, settings: settings)
        return String(
            decoding: try renderer.pageBytes(
                "people", page.templateFields(listPath: "/people", renderer: renderer),
                frame: PageFrame(title: "People", tab: .people)), as: UTF8.self)
    }

    @Test func aNewVersionWithOnePersonChangedRendersOneCard() throws {
        let (renderer, rendered) = try renderer()
        let first = try peopleHTML(TestData.users, renderer)
        #expect(rendered.withLock { $0.count } == TestData.users.count)
        var renamed = TestData.users
        renamed["user3"]?.name = "Catherine"
        rendered.withLock { $0.removeAll() }
        let second = try peopleHTML(renamed, renderer)
        #expect(rendered.withLock { $0.map(\.userID) } == ["user3"])
        #expect(second.contains(">Catherine</a>"))
        #expect(first.contains(">Cat</a>"))
        #expect(!second.contains(">Cat</a>"))
    }

    @Test func theSameVersionAgainRendersNoCard() throws {
        let (renderer, rendered) = try renderer()
        let first = try peopleHTML(TestData.users, renderer)
        rendered.withLock { $0.removeAll() }
        #expect(try peopleHTML(TestData.users, renderer) == first)
        #expect(rendered.withLock { $0.isEmpty })
    }

    /// Cached cards give the very bytes a cold render gives, whatever was rendered before.
    @Test func cachedCardsAreTheBytesOfAColdRendering() throws {
        let (warm, _) = try renderer()
        _ = try peopleHTML(TestData.users, warm, settings: Settings(followedUserIDs: ["user2"]))
        let (cold, _) = try renderer()
        #expect(try peopleHTML(TestData.users, warm) == peopleHTML(TestData.users, cold))
    }

    /// Following someone changes their card (its button and badge) and only theirs.
    @Test func aFollowChangesOnlyThatPersonsCard() throws {
        let (renderer, rendered) = try renderer()
        _ = try peopleHTML(TestData.users, renderer)
        rendered.withLock { $0.removeAll() }
        let html = try peopleHTML(TestData.users, renderer, settings: Settings(followedUserIDs: ["user2"]))
        #expect(rendered.withLock { $0.map(\.userID) } == ["user2"])
        #expect(html.contains("is-followed"))
    }

    @Test func theCacheStaysWithinItsByteBudget() throws {
        let (renderer, _) = try renderer(budget: 4096)
        for round in 0..<20 {
            var users = TestData.users
            for id in users.keys { users[id]?.name += " \(round)" }
            _ = try peopleHTML(users, renderer)
        }
        #expect(renderer.cards.bytes <= 4096)
        #expect(renderer.cards.count > 0)
    }
}

extension CardKey {
    /// The person a People card or a Following row shows (tests).
    var userID: String? {
        switch self {
        case .person(let card, _, _): card.userID
        case .following(let row): row.userID
        case .leaderboard, .habitRow, .habitSectionStart, .habitSectionEnd: nil
        }
    }

    /// The habit a leaderboard card shows (tests).
    var habitName: String? {
        if case .leaderboard(let card) = self { card.habitName } else { nil }
    }
}

/// Home's leaderboard cards and Following rows are kept like People's cards.
@Suite struct HomeCardCacheTests {
    let settings = Settings(favoriteHabits: ["Yoga", "Run"], followedUserIDs: ["user1", "user2"])

    func homeHTML(_ counts: [String: [String: Int]], _ renderer: PageRenderer) throws -> String {
        let page = HomePage(statistics: TestData.statistics(counts), users: TestData.users, settings: settings)
        return String(
            decoding: try renderer.fragmentBytes("fragments/home", page.fragmentValue(stale: nil, renderer: renderer)),
            as: UTF8.self)
    }

    @Test func aNewCountInOneHabitRendersItsCardAndTheRowsThatNameIt() throws {
        let (renderer, rendered) = try CardCacheTests().renderer()
        let counts = ["Yoga": ["user1": 3, "activeUser": 2], "Run": ["user2": 4, "activeUser": 1]]
        _ = try homeHTML(counts, renderer)
        #expect(rendered.withLock { $0.compactMap(\.habitName) } == ["Run", "Yoga"])
        #expect(rendered.withLock { $0.compactMap(\.userID) } == ["user1", "user2"])
        rendered.withLock { $0.removeAll() }
        var next = counts
        next["Run"]?["user2"] = 5
        let html = try homeHTML(next, renderer)
        // Run's card changed; Bob's row names Run with unchanged ranks, so it is the same row; Amy's is untouched.
        #expect(rendered.withLock { $0.compactMap(\.habitName) } == ["Run"])
        #expect(rendered.withLock { $0.compactMap(\.userID) }.isEmpty)
        #expect(html.contains(#"<span class="count">5</span>"#))
    }

    /// A card's trend is part of its key, so the cache's byte budget counts its samples, not only the card's HTML.
    @Test func aLeaderboardCardsTrendCountsInTheBudget() throws {
        let (renderer, _) = try CardCacheTests().renderer()
        var page = HomePage(
            statistics: TestData.statistics(["Yoga": ["user1": 3]]), users: TestData.users,
            settings: Settings(favoriteHabits: ["Yoga"]))
        page.leaderboard[0].trend = Trend(samples: Array(repeating: 7, count: 360), capacity: 360, spacing: 10)
        let fragment = try renderer.fragmentBytes("fragments/home", page.fragmentValue(stale: nil, renderer: renderer))
        #expect(renderer.cards.count == 1)
        #expect(renderer.cards.bytes >= 360 * MemoryLayout<Int?>.stride + CardCache.entryOverhead)
        #expect(renderer.cards.bytes < fragment.count + 360 * MemoryLayout<Int?>.stride + 1024)
    }

    /// The cards of a warm cache give the very bytes of a cold rendering.
    @Test func cachedCardsAndRowsAreTheBytesOfAColdRendering() throws {
        let (warm, _) = try CardCacheTests().renderer()
        _ = try homeHTML(["Yoga": ["user1": 1]], warm)
        let counts = ["Yoga": ["user1": 3, "activeUser": 2], "Run": ["user2": 4]]
        let (cold, _) = try CardCacheTests().renderer()
        #expect(try homeHTML(counts, warm) == homeHTML(counts, cold))
        #expect(try homeHTML(counts, warm).contains(#"class="following-row""#))
    }
}
