import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Habits and Log Habit paged as People is (issue 21 point 4: at 100 times the built-in data the whole lists were
/// 1.07 MB and 597 KB): 100 habits a page, sections split across pages keeping their headings, 400 for a malformed
/// `?page=`, 404 past the last.
@Suite final class HabitsPagingTests {
    /// 250 habits "Habit 000"… in two categories: A holds 000–149, B 150–249.
    static let habits: [String: Habit] = Dictionary(
        uniqueKeysWithValues: (0..<250).map { index in
            let name = "Habit " + String(1000 + index).dropFirst()
            let category = Category(name: index < 150 ? "A" : "B", color: Fixture.exercise.color)
            return (name, Habit(name: name, category: category, info: ""))
        })
    static let you = User(id: User.activeUserID, name: "Active User")
    static let data = FakeHabitsAPI.DataSet(
        users: [you.id: you], habits: habits, categories: [],
        counts: [(you, habits["Habit 120"]!, 3)])

    let fixture: FixtureApp
    var app: DashboardApp { fixture.app }

    init() throws { fixture = try FixtureApp(name: "habits-paging", data: Self.data) }

    static func name(_ index: Int) -> String { "Habit " + String(1000 + index).dropFirst() }

    var snapshot: Snapshot { Snapshot(inputs: SnapshotInputs(habits: Self.habits)) }

    // MARK: - View models

    @Test func habitsPagesSplitASectionAndKeepItsHeading() throws {
        let settings = Settings(favoriteHabits: [Self.name(240)])
        let first = HabitsListPage(snapshot: snapshot, settings: settings)
        let second = HabitsListPage(snapshot: snapshot, settings: settings, page: 2)
        let third = HabitsListPage(snapshot: snapshot, settings: settings, page: 3)
        // Favorites first (one), then 99 of A; then A's 100–149 and B's first 50; then the rest of B.
        #expect(first.sections.map(\.title) == ["Favorites", "A"])
        #expect(first.sections.map(\.habits.count) == [1, 99])
        #expect(second.sections.map(\.title) == ["A", "B"])
        #expect(second.sections.map(\.habits.count) == [51, 49])
        #expect(second.sections[0].habits.first?.name == Self.name(99))
        #expect(third.sections.map(\.habits.count) == [50])
        #expect(third.sections[0].habits.last?.name == Self.name(249))
        #expect(first.pager?.count == 3)
        #expect(HabitsListPage(snapshot: snapshot, settings: settings, page: 4).pager == nil)
    }

    @Test func aListThatFitsOnePageHasNoNavigationAndReturnsToTheList() throws {
        let page = HabitsListPage(habits: Fixture.habits, settings: Fixture.settings)
        #expect(page.pager?.isPaged == false)
        let fields = page.skeletonFields(listPath: "/habits")
        #expect(fields["pager"] == .null)
        #expect(page.returnTo(listPath: "/habits") == "/habits")
    }

    @Test func habitsNavigationLinksThePagesAndTheButtonsReturnToThePageShown() throws {
        let page = HabitsListPage(snapshot: snapshot, settings: .default, page: 2)
        let renderer = try Fixture.renderer()
        let html = String(
            decoding: try renderer.pageBytes(
                "habits", page.templateFields(listPath: "/habits", renderer: renderer),
                frame: PageFrame(title: "Habits", tab: .habits)),
            as: UTF8.self)
        #expect(html.contains(#"<nav class="pager" aria-label="Pages of habits">"#))
        #expect(html.contains(#"<a class="pager-step" href="/habits" rel="prev">"#))
        #expect(html.contains(#"<a class="pager-step" href="/habits?page=3" rel="next">"#))
        #expect(html.contains(#"aria-label="Page 2" aria-current="page">2</a>"#))
        #expect(html.contains(#"name="return" value="/habits?page=2#"#))
    }

    @Test func logPagesShowYourStandingOnTheirButtonsAndSayWhichPageTheFormsAreOn() throws {
        let statistics = Self.data.statistics()
        let snapshot = Snapshot(inputs: SnapshotInputs(habits: Self.habits, statistics: statistics))
        let second = LogHabitPage(snapshot: snapshot, settings: .default, page: 2)
        #expect(second.categories.map(\.habits.count) == [50, 50])
        #expect(second.categories[0].habits.first?.name == Self.name(100))
        #expect(second.yours == [Self.name(120): LogHabitPage.YourStanding(count: 3, rank: 1)])
        #expect(second.templateFields(failure: nil)["page"] == .int(2))
        let first = LogHabitPage(snapshot: snapshot, settings: .default)
        #expect(first.yours.isEmpty)
        #expect(first.templateFields(failure: nil)["page"] == .null)
        // The habit just logged keeps its confirmation whatever page is shown.
        let logged = LogHabitPage(snapshot: snapshot, settings: .default, loggedHabitName: Self.name(120))
        #expect(logged.confirmation == "Logged \(Self.name(120)): you have 3, 1st.")
        #expect(LogHabitPage(snapshot: snapshot, settings: .default, page: 4).pager == nil)
    }

    // MARK: - Routes

    func get(_ target: String) async throws -> Response {
        try await app.responder.respond(
            to: Request(method: .get, target: target, headers: HTTPHeaders([("Host", DashboardAppTests.host)])),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
    }

    func html(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test(arguments: ["/habits", "/log"])
    func aMalformedPageIsA400AndOnePastTheLastA404(path: String) async throws {
        let second = try await get(path + "?page=2")
        #expect(second.status == .ok)
        #expect(html(second).contains(#"aria-current="page">2</a>"#))
        let malformed = try await get(path + "?page=02")
        #expect(malformed.status == .badRequest)
        #expect(html(malformed).contains("A page is a number from 1, as in ?page=2."))
        let past = try await get(path + "?page=4")
        #expect(past.status == .notFound)
        #expect(html(past).contains("There is no page 4 of habits: they fill 3 pages."))
    }

    @Test func loggingFromAPagedLogComesBackToItsPage() async throws {
        let response = try await app.responder.respond(
            to: Request(
                method: .post, target: "/log",
                headers: HTTPHeaders([
                    ("Host", DashboardAppTests.host), ("Origin", DashboardAppTests.origin),
                    ("Content-Type", "application/x-www-form-urlencoded"),
                ]), body: Array("habit=Habit%20120&page=2".utf8)),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
        #expect(response.status == .seeOther)
        let fragment = Links.elementID(habit: "Habit 120")
        // The habit is checked against a snapshot before the log (issue 47 point 4), so "from" is your count then.
        #expect(response.headers["Location"] == "/log?logged=Habit+120&from=3&page=2#\(fragment)")
        let page = try await get("/log?logged=Habit+120&from=3&page=2")
        #expect(html(page).contains("Logged <a href=\"/habits/Habit%20120\">Habit 120</a>: you have 4, 1st."))
        #expect(html(page).contains(#"<input type="hidden" name="page" value="2">"#))
    }
}
