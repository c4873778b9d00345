import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Passed and overtaken as the pages show them (issue 22 point 3): Home's Following row and leaderboard card, every
/// page's news fragment and the Log Habit confirmation, from snapshots the store refreshes on a manual clock. In the
/// fixture Aga Orlova and Brian Mork lead Yoga with 5 and You have 3; after two more You are tied with them, and one
/// Yoga logged then takes You past both.
@Suite final class MomentPagesTests: ScriptedSuite {
    let scripted: ScriptedApp

    init() throws { scripted = try ScriptedApp(name: "moments") }

    func post(_ target: String, _ body: String, cookie: String? = nil) async throws -> Response {
        try await scripted.post(target, body, cookie: cookie)
    }

    func get(_ target: String, cookie: String) async throws -> String {
        let response = try await scripted.get(target, [("Cookie", cookie)])
        #expect(response.status == .ok, "\(target)")
        return String(decoding: response.body, as: UTF8.self)
    }

    /// A browser that follows Aga Orlova and favours Yoga, having seen Home with You tied at the top.
    func browser() async throws -> String {
        let follow = try await post("/people/user0/follow", "follow=true&return=/")
        let cookie = String(try #require(follow.headers["Set-Cookie"]).split(separator: ";")[0])
        _ = try await post("/habits/Yoga/favorite", "favorite=true&return=/", cookie: cookie)
        _ = try await get("/", cookie: cookie)
        scripted.data.logYoga(2)
        clock.advance(by: .seconds(10))
        await scripted.snapshots.refreshAfterChange()
        return cookie
    }

    @Test func loggingPastSomeoneYouFollowShowsOnTheirRowTheNewsAndTheConfirmation() async throws {
        let cookie = try await browser()
        clock.advance(by: .seconds(10))
        let logged = try await post("/log", "habit=Yoga", cookie: cookie)
        let location = try #require(logged.headers["Location"])
        #expect(location.hasPrefix("/log?logged=Yoga&from=5#"))

        let confirmation = try await get(String(location.split(separator: "#")[0]), cookie: cookie)
        #expect(
            confirmation.contains(
                #"<strong class="passed">You passed Aga Orlova and Brian Mork — now 1st in Yoga.</strong>"#))

        clock.advance(by: .seconds(240))
        let home = try await get("/", cookie: cookie)
        #expect(
            home.contains(
                #"<p class="moment">You passed Aga Orlova in <a href="/habits/Yoga">Yoga</a> · <time datetime=""#),
            "\(home)")
        #expect(home.contains(#"data-time="ago">4 min ago</time></p>"#))
        // Pulling ahead of the tie at the top made You the leader of the favourite Yoga: its card says when.
        #expect(home.contains(#"<p class="moment leader-change">You took the lead · <time datetime=""#))

        let news = try await get("/fragments/news", cookie: cookie)
        #expect(news.contains(#"<p class="notice notice-moment" data-moment="m-"#))
        #expect(news.contains("You passed Aga Orlova in"))
        // Every page of the app carries the news region, polled by live.js.
        #expect(
            try await get("/habits", cookie: cookie).contains(
                #"data-live-src="/fragments/news" data-live-quiet></aside>"#))
    }

    @Test func aBrowserThatFollowsNobodyIsToldNothing() async throws {
        let follow = try await post("/people/user9/follow", "follow=true&return=/")
        let cookie = String(try #require(follow.headers["Set-Cookie"]).split(separator: ";")[0])
        _ = try await get("/", cookie: cookie)
        _ = try await post("/log", "habit=Yoga", cookie: cookie)
        let news = try await get("/fragments/news", cookie: cookie)
        #expect(!news.contains("data-moment"))
    }

    @Test func theNewsLeavesThePageAfterAQuarterHourAndTheRowAfterADay() async throws {
        let cookie = try await browser()
        _ = try await post("/log", "habit=Yoga", cookie: cookie)
        clock.advance(by: .seconds(16 * 60))
        await scripted.snapshots.refreshAfterChange()
        #expect(!(try await get("/fragments/news", cookie: cookie)).contains("data-moment"))
        #expect(try await get("/", cookie: cookie).contains("You passed Aga Orlova in"))
        clock.advance(by: .seconds(86_400))
        await scripted.snapshots.refreshAfterChange()
        #expect(!(try await get("/", cookie: cookie)).contains("You passed Aga Orlova in"))
    }
}

/// "Since your last visit" with a moved clock (issue 22 point 4): a signed cookie remembers the visit, and Home after
/// 30 minutes away starts with what changed in the favourites and follows.
@Suite final class SinceLastVisitTests {
    let moments: MomentPagesTests
    var clock: ManualClock { moments.clock }

    init() throws { moments = try MomentPagesTests() }

    /// Home's answer and its `habits_visit` cookie (nil when it set none).
    func home(_ cookies: [String]) async throws -> (html: String, visit: String?) {
        let response = try await moments.scripted.get("/", [("Cookie", cookies.joined(separator: "; "))])
        #expect(response.status == .ok)
        let visit = response.headers.values(for: "Set-Cookie").first { $0.hasPrefix(LastVisit.cookieName + "=") }
        return (String(decoding: response.body, as: UTF8.self), visit.map { String($0.split(separator: ";")[0]) })
    }

    @Test func homeAfterHalfAnHourAwaySaysWhatChangedAndThenNoMore() async throws {
        let settings = try await moments.browser()
        let first = try await home([settings])
        let visit = try #require(first.visit)
        #expect(!first.html.contains("Since your last visit"))
        // Renewed at most once a minute: a page a moment later sets no cookie.
        clock.advance(by: .seconds(5))
        #expect(try await home([settings, visit]).visit == nil)

        moments.scripted.data.logYoga(3)
        clock.advance(by: .seconds(10))
        await moments.scripted.snapshots.refreshAfterChange()
        clock.advance(by: .seconds(40 * 60))
        await moments.scripted.snapshots.refreshAfterChange()

        let back = try await home([settings, visit])
        #expect(back.html.contains(#"<h2 id="since-title">Since your last visit <time datetime=""#), "\(back.html)")
        #expect(back.html.contains(#"data-time="ago">40 min ago</time></h2>"#))
        #expect(back.html.contains(#"<li>Your favorites: <a href="/habits/Yoga">Yoga</a> +3</li>"#))
        #expect(back.html.contains(#"<li>You passed Aga Orlova in <a href="/habits/Yoga">Yoga</a> · "#))
        let renewed = try #require(back.visit)
        #expect(!(try await home([settings, renewed]).html.contains("Since your last visit")))
    }

    @Test func tenMinutesAwayOrAForgedTimeShowsNoSummary() async throws {
        let settings = try await moments.browser()
        let visit = try #require(try await home([settings]).visit)
        clock.advance(by: .seconds(10 * 60))
        #expect(!(try await home([settings, visit]).html.contains("Since your last visit")))
        let forged = LastVisit.cookieName + "=1000." + String(repeating: "A", count: 43)
        clock.advance(by: .seconds(40 * 60))
        let answer = try await home([settings, forged])
        #expect(!answer.html.contains("Since your last visit"))
        #expect(answer.visit != nil, "a forged cookie is no cookie: a fresh one is set")
    }

    @Test func aBrowserWithoutSettingsGetsNoVisitCookie() async throws {
        #expect(try await home([]).visit == nil)
    }

    /// Only the browser id the page's settings were loaded for counts: a forged settings cookie is no browser.
    @Test func aForgedSettingsCookieGetsNoVisitCookie() async throws {
        let settings = try await moments.browser()
        let forged = String(settings.dropLast()) + (settings.hasSuffix("A") ? "B" : "A")
        #expect(try await home([forged]).visit == nil)
        #expect(try await home([settings]).visit != nil)
    }
}
