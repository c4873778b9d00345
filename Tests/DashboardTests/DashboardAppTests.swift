import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The app's routes answered directly (no sockets), with a fake Habits API and a temporary settings directory (the
/// set-up is `FixtureApp`). This file holds the helpers and the pages; `+FavoritesAndFollows`, `+LogHabit`, `+Images`,
/// `+Compression`, `+NewBrowsers` and `+PublicURL` the rest.
@Suite final class DashboardAppTests {
    let fixture: FixtureApp
    var api: FakeHabitsAPI { fixture.api }
    var directory: URL { fixture.directory }
    var store: SettingsStore<Settings> { fixture.store }
    var app: DashboardApp { fixture.app }
    static let host = "127.0.0.1:8000"
    static let origin = "http://127.0.0.1:8000"

    init() throws { fixture = try FixtureApp(name: "dashboard-app", metrics: { _ in "upstream_calls 3\n" }) }

    // MARK: - Helpers

    func get(_ target: String, cookie: String? = nil, headers: [(String, String)] = []) async throws -> Response {
        var fields = [("Host", Self.host)] + headers
        if let cookie { fields.append(("Cookie", cookie)) }
        return try await app.responder.respond(
            to: Request(method: .get, target: target, headers: HTTPHeaders(fields)),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
    }

    func post(_ target: String, form: String, cookie: String? = nil, origin: String? = DashboardAppTests.origin)
        async throws
        -> Response
    {
        var fields = [("Host", Self.host), ("Content-Type", "application/x-www-form-urlencoded")]
        if let origin { fields.append(("Origin", origin)) }
        if let cookie { fields.append(("Cookie", cookie)) }
        return try await app.responder.respond(
            to: Request(method: .post, target: target, headers: HTTPHeaders(fields), body: Array(form.utf8)),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
    }

    func html(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    /// `habits_browser=<id>` from a Set-Cookie header, ready for a Cookie header.
    func cookie(from response: Response) throws -> String {
        let setCookie = try #require(response.headers["Set-Cookie"])
        return String(setCookie.split(separator: ";")[0])
    }

    /// The settings directory's entries, without the store's own dot-files (`.locks/`).
    func settingsFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The browser id a `habits_browser=<id>.<tag>` cookie names, checked with the app's signer.
    func browserID(_ cookie: String) throws -> BrowserID {
        try #require(
            app.settings.signers.current!.browserID(fromCookie: String(cookie.dropFirst("habits_browser=".count))))
    }

    // MARK: - Pages

    @Test(arguments: [
        "/", "/habits", "/habits/Yoga", "/habits/Push-ups%2FSit-ups", "/habits/Caf%C3%A9%20cr%C3%A8me%20%26%20co",
        "/habits/%3Cscript%3E%22%26%27", "/people", "/people?followed=1&q=aga", "/people/user0", "/people/user9",
        "/people/activeUser", "/log",
    ])
    func everyPageAnswersHTMLWithSecurityHeadersAndNoCookie(target: String) async throws {
        let response = try await get(target)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'; script-src 'self'") == true)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Set-Cookie"] == nil, "a plain GET never mints a cookie")
        #expect(!html(response).contains(Fixture.hostileName))
        #expect(try settingsFiles().isEmpty)
    }

    @Test func habitNameWithSlashRoutesToItsPage() async throws {
        let page = html(try await get("/habits/Push-ups%2FSit-ups"))
        #expect(page.contains("<h1>Push-ups/Sit-ups</h1>"))
        #expect(page.contains(#"data-live-src="/fragments/habits/Push-ups%2FSit-ups""#))
    }

    /// Regression: a habit or person called `.` or `..` was linked as `/habits/..`, which browsers resolve to `/`
    /// before sending; every link, image and form must reach the right thing without such a segment.
    @Test func dotNamesAreLinkedSoBrowsersKeepThemAndRouteBack() async throws {
        let dots = DashboardApp(
            upstream: DotNamesAPI(), renderer: app.renderer, settings: BrowserSettings(store: store), clock: app.clock)
        func send(_ method: HTTPMethod, _ target: String, form: String = "", cookie: String? = nil) async throws
            -> Response
        {
            var fields = [("Host", Self.host), ("Origin", Self.origin)]
            if let cookie { fields.append(("Cookie", cookie)) }
            if method == .post { fields.append(("Content-Type", "application/x-www-form-urlencoded")) }
            return try await dots.responder.respond(
                to: Request(method: method, target: target, headers: HTTPHeaders(fields), body: Array(form.utf8)),
                context: RequestContext(requestID: "t", logger: .silent)
            ).response()
        }
        var links: Set<String> = []
        for page in ["/", "/habits", "/people", "/log", "/habits/?name=..", "/people/?id=."] {
            let response = try await send(.get, page)
            #expect(response.status == .ok, "\(page)")
            links.formUnion(Self.urls(in: html(response)))
        }
        #expect(links.isSuperset(of: ["/habits/?name=..", "/habits/?name=.", "/people/?id=.", "/images/?id=.."]))
        for link in links {
            let path = link.split(separator: "?", omittingEmptySubsequences: false)[0]
            #expect(!path.split(separator: "/").contains { $0 == "." || $0 == ".." }, "\(link)")
        }
        #expect(html(try await send(.get, "/habits/?name=..")).contains("<h1>..</h1>"))
        #expect(html(try await send(.get, "/habits/?name=.")).contains("<h1>.</h1>"))
        #expect(html(try await send(.get, "/people/?id=.")).contains("<h1>Dot</h1>"))
        #expect(try await send(.get, "/fragments/people/?id=..").status == .ok)
        #expect(try await send(.get, "/fragments/habits/?name=..").status == .ok)
        #expect(try await send(.get, "/images/?id=..").body == Array("PNG:..".utf8))
        let favorite = try await send(.post, "/habits//favorite?name=..", form: "favorite=true")
        #expect(favorite.status == .seeOther)
        #expect(favorite.headers["Location"] == "/habits/?name=..")
        let follow = try await send(
            .post, "/people//follow?id=.", form: "follow=true", cookie: try cookie(from: favorite))
        #expect(follow.headers["Location"] == "/people/?id=.")
        let saved = try #require(try settingsFiles().first)
        let settings = try await store.load(try #require(BrowserID(String(saved.dropLast(5)))))
        #expect(settings == Settings(favoriteHabits: [".."], followedUserIDs: ["."]))
    }

    /// Every URL in `href`, `src`, `action` and `data-live-src` attributes, unescaped.
    static func urls(in html: String) -> [String] {
        var urls: [String] = []
        for attribute in ["href=\"", "src=\"", "action=\""] {
            var rest = html[...]
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                urls.append(String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&"))
                rest = rest[end...]
            }
        }
        return urls.filter { $0.hasPrefix("/") && !$0.hasPrefix("/static/") }
    }

    /// Regression: `/people/<id>` and `/images/<id>` passed any id from the URL on to the upstream, so every random id
    /// cost an upstream call and a shared-cache entry (pushing real ones out).
    @Test(arguments: ["/people/no-such-id", "/fragments/people/no-such-id", "/images/no-such-id"])
    func unknownIDsNeverReachTheUpstream(target: String) async throws {
        // Machine paths (fragments, images) answer with the bare status; pages with the layout.
        let response = try await get(target)
        #expect(response.status == .notFound)
        #expect(api.perUserCalls.isEmpty)
    }

    @Test(arguments: ["/habits/Nope", "/people/nobody", "/no/such/page", "/habits/Yoga/extra"])
    func unknownThingsAnswer404InTheLayout(target: String) async throws {
        let response = try await get(target)
        #expect(response.status == .notFound)
        #expect(html(response).contains("<h1>Page not found</h1>"))
        #expect(html(response).contains(#"<nav class="tabs""#))
    }

    @Test func upstreamDownWithNoDataIsABadGatewayPageNotATrace() async throws {
        api.fail(with: .transport("connection refused"))
        let response = try await get("/habits")
        #expect(response.status == .badGateway)
        #expect(html(response).contains("<h1>The Habits service is not answering</h1>"))
        #expect(html(response).contains("No data has arrived from it yet"))
        #expect(!html(response).contains("connection refused"))
        // It tries again by itself: the script with JavaScript, a slow refresh without; Home is still offered.
        #expect(html(response).contains(#"data-retry="10""#))
        #expect(html(response).contains(#"<noscript><meta http-equiv="refresh" content="10"></noscript>"#))
        #expect(html(response).contains(#"<a href="/">Back to Home</a>"#))
        // Fragments fail with a plain status for live.js, which only needs it to back off; no detail leaks.
        let fragment = try await get("/fragments/home")
        #expect(fragment.status == .badGateway)
        #expect(html(fragment) == "Bad Gateway")
    }

    @Test func homeWithoutFavouritesOrFollowsNeedsNoUpstream() async throws {
        api.fail(with: .transport("connection refused"))
        let response = try await get("/")
        #expect(response.status == .ok)
        #expect(html(response).contains("<h2>Welcome</h2>"))
    }

    @Test func livePagesOfferAPauseWithoutJavaScriptAndLive0PausesThem() async throws {
        let live = html(try await get("/"))
        #expect(live.contains(#"<a href="/?live=0">Pause live updates</a>"#))
        #expect(live.contains(#"http-equiv="refresh""#))
        let paused = html(try await get("/?live=0"))
        #expect(!paused.contains(#"http-equiv="refresh""#))
        #expect(paused.contains("<body data-live-paused>"))
        #expect(paused.contains(#"<a href="/">Resume live updates</a>"#))
        let habit = html(try await get("/habits/Yoga?live=0"))
        #expect(habit.contains(#"<a href="/habits/Yoga">Resume live updates</a>"#))
    }

    // MARK: - Live fragments

    @Test func fragmentAnswers304UntilTheDataChanges() async throws {
        let first = try await get("/fragments/habits/Yoga")
        #expect(first.status == .ok)
        let tag = try #require(first.headers["ETag"])
        let page = html(try await get("/habits/Yoga"))
        #expect(page.contains("data-live-etag=\"\(tag.replacingOccurrences(of: "\"", with: "&quot;"))\""))

        let same = try await get("/fragments/habits/Yoga", headers: [("If-None-Match", tag)])
        #expect(same.status == .notModified)
        #expect(same.body.isEmpty)

        _ = try await post("/log", form: "habit=Yoga")
        let changed = try await get("/fragments/habits/Yoga", headers: [("If-None-Match", tag)])
        #expect(changed.status == .ok)
        #expect(html(changed).contains("Active User"))
    }

    /// The ids of the people cards of a People page, in the order shown.
    func peopleOrder(_ target: String) async throws -> [String] {
        let page = html(try await get(target))
        return page.matches(of: #/class="person-name" href="/people/([^"]+)"/#).map { String($0.output.1) }
    }

    /// Fixture totals: Aga 13, Active User 7, Brian 7, Zed 0; habits led (ties count for each): Aga 2 (Yoga, Café),
    /// Brian 2 (Yoga, Push-ups), Active User 1, Zed 0. Ties go by name.
    @Test func peopleSortsByTheNamedOrderAndRefusesAnUnknownOne() async throws {
        #expect(try await peopleOrder("/people") == ["activeUser", "user0", "user3", "user9"])
        #expect(try await peopleOrder("/people?sort=activity") == ["user0", "activeUser", "user3", "user9"])
        #expect(try await peopleOrder("/people?sort=leading") == ["user0", "user3", "activeUser", "user9"])
        #expect(try await get("/people?sort=activity&followed=1&q=a").status == .ok)
        let bad = try await get("/people?sort=shoe-size")
        #expect(bad.status == .badRequest)
        #expect(html(bad).contains("Sort people by name, activity or leading."))
    }

    /// `/metrics` only on the metrics listener's responder, and only to its local names (issue 48).
    @Test func healthAndMetricsAnswerPlainTextAndMetricsOnlyOnTheirOwnListener() async throws {
        #expect(html(try await get("/healthz")) == "ok\n")
        #expect(try await get("/metrics").status == .notFound)
        let metrics = app.metricsResponder(policy: .forServer(host: "127.0.0.1"))
        func scrape(_ host: String, _ target: String = "/metrics") async throws -> Response {
            try await metrics.respond(
                to: Request(method: .get, target: target, headers: HTTPHeaders([("Host", host)])),
                context: RequestContext(requestID: "t", logger: .silent)
            ).response()
        }
        #expect(html(try await scrape(Self.host)) == "upstream_calls 3\n")
        // Anything else is a bare 404 there (the server writes it): no page, no health.
        await #expect(throws: HTTPError(.notFound)) { _ = try await scrape(Self.host, "/") }
        await #expect(throws: MisdirectedRequest(overHTTPS: false)) { _ = try await scrape("rebind.evil.example") }
    }
}
