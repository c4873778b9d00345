import HabitsAPI
import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Paging long lists (issue 21 point 4): the pure `Pager`, People's and a habit's pages, the navigation's links.
@Suite struct PagerTests {
    @Test(arguments: [(nil, 1), ("1", 1), ("2", 2), ("999999", 999_999)] as [(String?, Int)])
    func parsesAPageNumber(value: String?, expected: Int) {
        #expect(Pager.parse(value) == expected)
    }

    /// Every spelling but the plain one is a 400, so one page has one URL and one render key.
    @Test(arguments: ["", "0", "-1", "01", "+2", "2.0", "two", "1e3", "1000000", " 2", "２"])
    func rejectsWhatIsNotAPlainPageNumber(value: String) {
        #expect(Pager.parse(value) == nil)
    }

    @Test func pageBoundariesSplitTheListWithAShortLastPage() throws {
        let first = try #require(Pager(number: 1, total: 250, size: 100))
        let last = try #require(Pager(number: 3, total: 250, size: 100))
        #expect(first.count == 3)
        #expect(first.range == 0..<100)
        #expect(last.range == 200..<250)
        #expect(Pager(number: 2, total: 200, size: 100)?.range == 100..<200)
        #expect(Pager(number: 3, total: 200, size: 100) == nil)
    }

    @Test func anEmptyListIsOnePageWithoutNavigation() throws {
        let pager = try #require(Pager(number: 1, total: 0, size: 100))
        #expect(pager.count == 1)
        #expect(pager.range.isEmpty)
        #expect(!pager.isPaged)
        #expect(pager.templateValue(label: "Pages", url: { "/p?page=\($0)" }) == .null)
    }

    @Test(arguments: [0, 4, 100])
    func aPagePastTheLastIsNone(number: Int) {
        #expect(Pager(number: number, total: 250, size: 100) == nil)
    }

    /// A list of thousands of pages still has a short navigation: the ends, two on each side, gaps between.
    @Test func showsTheEndsAndTwoPagesEachSideWithGaps() throws {
        #expect(try #require(Pager(number: 1, total: 1000, size: 10)).shownNumbers == [1, 2, 3, nil, 100])
        #expect(
            try #require(Pager(number: 50, total: 1000, size: 10)).shownNumbers == [
                1, nil, 48, 49, 50, 51, 52, nil, 100,
            ])
        #expect(try #require(Pager(number: 4, total: 60, size: 10)).shownNumbers == [1, 2, 3, 4, 5, 6])
    }

    @Test func navigationLinksPreviousNextAndMarksTheCurrentPage() throws {
        let pager = try #require(Pager(number: 2, total: 30, size: 10))
        let value = pager.templateValue(label: "Pages of people") { Pager.url("/people?sort=activity", page: $0) }
        guard case .object(let fields) = value, case .list(let pages) = fields["pages"] else {
            Issue.record("no navigation")
            return
        }
        #expect(fields["previous"] == ["href": "/people?sort=activity"])
        #expect(fields["next"] == ["href": "/people?sort=activity&page=3"])
        #expect(pages.count == 3)
        #expect(pages[1] == ["isGap": false, "href": "/people?sort=activity&page=2", "number": 2, "isCurrent": true])
        #expect(pages[0] == ["isGap": false, "href": "/people?sort=activity", "number": 1, "isCurrent": false])
    }

    @Test func theFirstAndLastPagesHaveNoPreviousOrNext() throws {
        let url: (Int) -> String = { Pager.url("/people", page: $0) }
        guard
            case .object(let first) = try #require(Pager(number: 1, total: 30, size: 10)).templateValue(
                label: "P", url: url),
            case .object(let last) = try #require(Pager(number: 3, total: 30, size: 10)).templateValue(
                label: "P", url: url)
        else {
            Issue.record("no navigation")
            return
        }
        #expect(first["previous"] == .null)
        #expect(last["next"] == .null)
        #expect(last["previous"] == ["href": "/people?page=2"])
    }

    // MARK: - People

    /// 250 people named "Person 000"… in name order.
    static let crowd: [String: User] = Dictionary(
        uniqueKeysWithValues: (0..<250).map { index in
            let id = "u\(index)"
            return (id, User(id: id, name: "Person " + String(1000 + index).dropFirst()))
        })

    @Test func peoplePagesHoldTheirShareOfTheCardsInOrder() throws {
        let snapshot = Snapshot(inputs: SnapshotInputs(users: Self.crowd))
        let second = PeoplePage(snapshot: snapshot, settings: .default, page: 2)
        let last = PeoplePage(snapshot: snapshot, settings: .default, page: 3)
        #expect(second.people.count == 100)
        #expect(second.people.first?.name == "Person 100")
        let expected: [String] = (200..<250).map { "Person " + String(String(1000 + $0).dropFirst()) }
        #expect(last.people.map(\.name) == expected)
        #expect(last.matchCount == 250)
        #expect(second.summary == "Showing 101–200 of 250 people; you follow 0.")
        #expect(PeoplePage(snapshot: snapshot, settings: .default, page: 4).pager == nil)
    }

    @Test func aFilteredPagedListSaysHowManyMatch() {
        let snapshot = Snapshot(inputs: SnapshotInputs(users: Self.crowd))
        let page = PeoplePage(snapshot: snapshot, settings: .default, query: "Person 1", pageSize: 50)
        #expect(page.matchCount == 100)
        #expect(page.summary == "Showing 1–50 of 100 matching people, 250 in all; you follow 0.")
    }

    @Test func aListThatFitsOnePageKeepsItsSummaryAndHasNoNavigation() throws {
        let page = PeoplePage(users: TestData.users, settings: Settings(followedUserIDs: ["user2"]))
        #expect(page.summary == "Showing 5 of 5 people; you follow 1.")
        #expect(page.pager?.isPaged == false)
        let fields = try page.templateFields(listPath: "/people", renderer: renderer())
        #expect(fields["pager"] == .null)
    }

    @Test func peopleNavigationKeepsTheFilterAndTheFollowFormsReturnToThePage() throws {
        let snapshot = Snapshot(inputs: SnapshotInputs(users: Self.crowd))
        let page = PeoplePage(snapshot: snapshot, settings: .default, sort: .activity, page: 2)
        let renderer = renderer()
        let html = String(
            decoding: try renderer.pageBytes(
                "people", page.templateFields(listPath: "/people?sort=activity", renderer: renderer),
                frame: PageFrame(title: "People", tab: .people)), as: UTF8.self)
        #expect(html.contains(#"<nav class="pager" aria-label="Pages of people">"#))
        #expect(html.contains(#"<a class="pager-step" href="/people?sort=activity" rel="prev">"#))
        #expect(html.contains(#"href="/people?sort=activity&amp;page=3" rel="next">"#))
        #expect(html.contains(#"aria-label="Page 2" aria-current="page">2</a>"#))
        #expect(html.contains(#"name="return" value="/people?sort=activity&amp;page=2#p-"#))
    }

    // MARK: - A habit's members

    @Test func aHabitsMembersArePagedAcrossItsCountGroups() throws {
        // 150 people with count 2 (the leaders), 100 with count 1.
        var counts: [String: Int] = [:]
        for index in 0..<250 { counts["u\(index)"] = index < 150 ? 2 : 1 }
        let statistics = CombinedStatistics(
            userStatistics: [],
            habitStatistics: [
                HabitStatistics(
                    habit: TestData.habits["Yoga"]!,
                    userCounts: counts.map { UserCount(user: Self.crowd[$0.key]!, count: $0.value) })
            ])
        let snapshot = Snapshot(
            inputs: SnapshotInputs(users: Self.crowd, habits: TestData.habits, statistics: statistics))
        let first = try #require(HabitDetailPage(habitName: "Yoga", snapshot: snapshot, settings: .default))
        let second = try #require(HabitDetailPage(habitName: "Yoga", snapshot: snapshot, settings: .default, page: 2))
        let third = try #require(HabitDetailPage(habitName: "Yoga", snapshot: snapshot, settings: .default, page: 3))
        #expect(first.groups.map(\.members.count) == [100])
        #expect(second.groups.map(\.members.count) == [50, 50])
        #expect(second.groups.map(\.title) == ["Leaders", "1"])
        #expect(second.groups[0].members.first?.name == "Person 100")
        #expect(third.groups.map(\.members.count) == [50])
        #expect(first.memberCount == 250)
        #expect(HabitDetailPage(habitName: "Yoga", snapshot: snapshot, settings: .default, page: 4)?.pager == nil)
    }

    // MARK: - Keys

    @Test func thePageNumberIsPartOfTheRenderKeyAndPageOneIsTheUnpagedKey() {
        let view = SnapshotView(
            snapshot: Snapshot(inputs: SnapshotInputs(users: Self.crowd)), stale: nil, generation: 0)
        let settings = Versioned(value: Settings.default, version: 0, digest: 0)
        let digests = PersonalDigests()
        func key(_ page: Int, query: String = "") -> RenderKey {
            PeoplePage.declaration(sort: .name).key(
                query: query, listPage: page, view: view, settings: settings, digests: digests, trendKey: nil)
        }
        #expect(key(1).route == "page:people")
        #expect(key(2).route == "page:people?page=2")
        #expect(key(2, query: "sort=activity").route == "page:people?sort=activity&page=2")
        #expect(key(2) != key(3))
    }

    func renderer() -> PageRenderer {
        try! Fixture.renderer()
    }
}
