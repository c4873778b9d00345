import HTTPServer
import HabitsAPI
import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Every page and fragment rendered from the real `Templates/` in strict mode, from the fixture.
@Suite struct PageRendererTests {
    let renderer: PageRenderer

    init() throws {
        renderer = try Fixture.renderer()
    }

    func body(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    var home: HomePage {
        HomePage(statistics: Fixture.combined, users: Fixture.users, settings: Fixture.settings)
    }

    func renderAll() throws -> [String: String] {
        let habitPage = try #require(
            HabitDetailPage(
                habitName: Fixture.hostileName, habits: Fixture.habits, statistics: Fixture.habitStatistics,
                settings: Fixture.settings))
        let person = try #require(
            PersonDetailPage(
                userID: "user0", users: Fixture.users, statistics: Fixture.userStatistics,
                leading: Fixture.leading("user0"), settings: Fixture.settings))
        let stale = StaleNotice(
            dataFetchedAt: .init(timeIntervalSince1970: 3723), timeZone: .gmt, now: .init(timeIntervalSince1970: 3723))
        return [
            "home": body(
                try renderer.livePage(
                    "home", HomePage.pageFields(), fragment: "fragments/home",
                    fragmentValue: home.fragmentValue(stale: stale, renderer: renderer),
                    liveSource: "/fragments/home", frame: PageFrame(title: "Home", tab: .home, isLive: true))),
            "habits": body(
                try renderer.page(
                    "habits",
                    HabitsListPage(habits: Fixture.habits, settings: Fixture.settings).templateFields(
                        listPath: "/habits", renderer: renderer),
                    frame: PageFrame(title: "Habits", tab: .habits, staleNotice: stale))),
            "habit": body(
                try renderer.livePage(
                    "habit", habitPage.templateFields, fragment: "fragments/habit",
                    fragmentValue: habitPage.fragmentValue(stale: nil), liveSource: "/fragments" + habitPage.path,
                    frame: PageFrame(title: habitPage.name, tab: .habits, isLive: true))),
            "people": body(
                try renderer.page(
                    "people",
                    PeoplePage(users: Fixture.users, settings: Fixture.settings).templateFields(
                        listPath: "/people", renderer: renderer),
                    frame: PageFrame(title: "People", tab: .people))),
            "person": body(
                try renderer.livePage(
                    "person", person.templateFields, fragment: "fragments/person",
                    fragmentValue: person.fragmentValue(stale: nil), liveSource: "/fragments/people/user0",
                    frame: PageFrame(title: person.name, tab: .people, isLive: true))),
            "log": body(
                try renderer.page(
                    "log",
                    LogHabitPage(habits: Fixture.habits, settings: Fixture.settings, loggedHabitName: "Yoga")
                        .templateFields(failure: "Could not log."), frame: PageFrame(title: "Log Habit", tab: .log))),
            "error": body(
                renderer.errorPage(status: .notFound, heading: "Not found", message: "No such habit.", logger: .silent)),
        ]
    }

    @Test func everyPageRendersInStrictModeInsideTheLayout() throws {
        for (name, html) in try renderAll() {
            #expect(html.hasPrefix("<!doctype html>"), "\(name)")
            #expect(html.contains(#"<main id="main""#), "\(name)")
            #expect(html.contains(#"<nav class="tabs" aria-label="Sections">"#), "\(name)")
            #expect(html.contains(#"href="/static/app.css""#), "\(name)")
            #expect(!html.contains("style="), "\(name) has an inline style the CSP would block")
            #expect(!html.contains("<script>"), "\(name) has an inline script the CSP would block")
        }
    }

    @Test func currentTabIsMarkedAndOnlyIt() throws {
        let pages = try renderAll()
        let expected = [
            "home": #"href="/" aria-current="page">Home"#, "habits": #"href="/habits" aria-current="page">Habits"#,
            "habit": #"href="/habits" aria-current="page">Habits"#,
            "people": #"href="/people" aria-current="page">People"#,
            "person": #"href="/people" aria-current="page">People"#,
            "log": #"href="/log" aria-current="page">Log Habit"#,
        ]
        for (name, marker) in expected {
            let html = try #require(pages[name])
            #expect(html.contains(marker), "\(name)")
            #expect(html.components(separatedBy: #"aria-current="page""#).count == 2, "\(name)")
        }
        #expect(try #require(pages["error"]).contains("aria-current") == false)
    }

    @Test func hostileTextReachesEveryPageEscaped() throws {
        for (name, html) in try renderAll() {
            #expect(!html.contains(Fixture.hostileName), "\(name)")
            #expect(!html.contains("<b>games"), "\(name)")
            #expect(!html.contains("onerror=\""), "\(name)")
        }
        let pages = try renderAll()
        #expect(try #require(pages["habit"]).contains("<h1>&lt;script&gt;&quot;&amp;&#39;</h1>"))
        #expect(try #require(pages["person"]).contains("Cinema &amp; &lt;b&gt;games&lt;/b&gt;."))
    }

    @Test func habitLinksPercentEncodeTheNameAsOneSegment() throws {
        let pages = try renderAll()
        let habits = try #require(pages["habits"])
        #expect(habits.contains(#"href="/habits/Push-ups%2FSit-ups""#))
        #expect(habits.contains(#"action="/habits/Push-ups%2FSit-ups/favorite""#))
        #expect(habits.contains(#"href="/habits/Caf%C3%A9%20cr%C3%A8me%20%26%20co""#))
    }

    @Test func livePagesCarryTheirFragmentSourceETagAndNoscriptRefresh() throws {
        let pages = try renderAll()
        for name in ["home", "habit", "person"] {
            let html = try #require(pages[name])
            #expect(html.contains(#"<noscript><meta http-equiv="refresh" content="5"></noscript>"#), "\(name)")
            #expect(html.contains(#"<script src="/static/live.js" defer></script>"#), "\(name)")
            #expect(html.contains(#"data-live-etag="&quot;"#), "\(name)")
        }
        #expect(try #require(pages["home"]).contains(#"data-live-src="/fragments/home""#))
        for name in ["habits", "people", "log", "error"] {
            #expect(try #require(pages[name]).contains("noscript") == false, "\(name)")
        }
    }

    @Test func staleNoticeShowsTheTimeOfTheData() throws {
        let pages = try renderAll()
        #expect(try #require(pages["home"]).contains(#"Showing data as of <time datetime="#))
        #expect(try #require(pages["home"]).contains(#">01:02:03</time>."#))
        #expect(try #require(pages["habits"]).contains(#">01:02:03</time>."#))
        #expect(try #require(pages["people"]).contains("data as of") == false)
    }

    @Test func homeShowsLeaderboardAndFollowingWithLinks() throws {
        let html = try #require(try renderAll()["home"])
        #expect(html.contains("Leaderboard"))
        #expect(html.contains(#"<a href="/habits/Yoga">Yoga</a>"#))
        // Aga and Brian tie on Yoga: both lead, on one line.
        #expect(
            html.contains(
                #"<a href="/people/user0">Aga Orlova</a> and <a href="/people/user3">Brian Mork</a> <span class="count">5</span>"#
            ))
        #expect(html.contains("Following"))
        #expect(html.contains("This user doesn&#39;t seem to have done much yet."))
    }

    @Test func tiedLeadersAreEachALinkOnOneLine() throws {
        let statistics = TestData.statistics(["Yoga": ["user2": 5, "user1": 5, "user3": 5]])
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(favoriteHabits: ["Yoga"]))
        let html = body(
            try renderer.fragment(
                "fragments/home", page.fragmentValue(stale: nil, renderer: renderer),
                for: Request(method: .get, target: "/fragments/home"))
        )
        #expect(
            html.contains(
                #"<a href="/people/user1">Amy</a>, <a href="/people/user2">Bob</a> and <a href="/people/user3">Cat</a> <span class="count">5</span>"#
            ))
    }

    @Test func homeWithoutSettingsExplainsHowToStart() throws {
        let page = HomePage(statistics: Fixture.combined, users: Fixture.users, settings: .default)
        let response = try renderer.livePage(
            "home", HomePage.pageFields(), fragment: "fragments/home",
            fragmentValue: page.fragmentValue(stale: nil, renderer: renderer),
            liveSource: "/fragments/home", frame: PageFrame(title: "Home", tab: .home, isLive: true))
        let html = body(response)
        #expect(html.contains("press <strong>Favorite</strong>"))
        #expect(html.contains("press <strong>Follow</strong>"))
        #expect(!html.contains("Leaderboard"))
    }

    @Test func fragmentAnswers304WhenTheETagMatches() throws {
        let value = try home.fragmentValue(stale: nil, renderer: renderer)
        let first = try renderer.fragment(
            "fragments/home", value, for: Request(method: .get, target: "/fragments/home"))
        #expect(first.status == .ok)
        let tag = try #require(first.headers["ETag"])
        let again = try renderer.fragment(
            "fragments/home", value,
            for: Request(method: .get, target: "/fragments/home", headers: ["If-None-Match": tag]))
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
        #expect(again.headers["ETag"] == tag)
        let changed = try renderer.fragment(
            "fragments/home",
            HomePage(statistics: Fixture.combined, users: Fixture.users, settings: .default)
                .fragmentValue(stale: nil, renderer: renderer),
            for: Request(method: .get, target: "/fragments/home", headers: ["If-None-Match": tag]))
        #expect(changed.status == .ok)
        #expect(changed.headers["ETag"] != tag)
    }

    @Test func anErrorPageNeverLinksToThePageThatFailed() {
        let onHome = body(
            renderer.errorPage(
                status: .badGateway, heading: "Down", message: "Later.", logger: .silent, path: "/"))
        #expect(!onHome.contains("Back to Home"))
        #expect(onHome.contains(#"data-retry="10""#))
        let elsewhere = body(
            renderer.errorPage(
                status: .notFound, heading: "Gone", message: "No.", logger: .silent, path: "/habits/x"))
        #expect(elsewhere.contains(#"<a href="/">Back to Home</a>"#))
        #expect(!elsewhere.contains("data-retry"))
    }

    @Test func errorPageKeepsItsStatusAndTheLayout() {
        let response = renderer.errorPage(
            status: .notFound, heading: "Habit not found", message: "No habit <x>.", logger: .silent)
        #expect(response.status == .notFound)
        #expect(body(response).contains("<h1>Habit not found</h1>"))
        #expect(body(response).contains("No habit &lt;x&gt;."))
    }
}
