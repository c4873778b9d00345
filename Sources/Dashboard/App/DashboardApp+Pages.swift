import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

/// Every GET page is a function of (snapshot, the browser's settings): its bytes and their ETag are rendered once per
/// `RenderKey` and served from `RenderCache` until the data changes, so a warm `If-None-Match` renders nothing.
extension DashboardApp {
    // MARK: - Home

    func home(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (browser, personal) = try await personalSettings(request)
        let paused = Self.isPaused(request)
        var frame = PageFrame(title: "Home", tab: .home, isLive: true, path: LivePage.home.route, isPaused: paused)
        let view: SnapshotView
        do {
            view = try await snapshots.view(live: true)
        } catch  where browser.favoriteHabits.isEmpty && browser.followedUserIDs.isEmpty {
            // Nothing to show from the upstream anyway: the introduction needs no data (issue 10 point 8).
            return try renderer.livePage(
                .home, HomePage.pageFields(),
                fragmentValue: HomePage(leaderboard: [], following: []).fragmentValue(stale: nil),
                path: LivePage.home.route, frame: frame)
        }
        frame.colorsVersion = view.snapshot.referenceVersion
        let since = sinceLastVisit(request, view, browser)
        let key = pageKey(
            .home, paused: paused, view, since.map { personal.all ^ UInt64($0.lastVisit.second) } ?? personal.all)
        return try cachedHTML(request, key: key) {
            let fragment = try homeFragment(view, browser)
            return try renderer.livePageBytes(
                .home, HomePage.pageFields(sinceLastVisit: since?.templateValue ?? .null), fragment: fragment.body,
                fragmentTag: fragment.entityTag, path: LivePage.home.route, frame: frame)
        }
    }

    /// Whether the request asks for the page without live updates (`?live=0`, the no-JavaScript pause link).
    static func isPaused(_ request: Request) -> Bool { request.query["live"] == "0" }

    func homeFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        try await liveFragment(request, context) { view, browser in
            try homeFragment(view, browser)
        }
    }

    private func homeFragmentKey(_ view: SnapshotView, _ browser: Settings) -> RenderKey {
        RenderKey(
            route: LivePage.home.fragmentKey(), content: trendContent(view), personal: RenderKey.digest(of: browser),
            stale: view.stale?.asOf)
    }

    private func homeFragment(_ view: SnapshotView, _ browser: Settings) throws -> RenderCache.Entry {
        try renderCache.entry(for: homeFragmentKey(view, browser)) {
            let now = snapshots.date
            let page = HomePage(
                snapshot: view.snapshot, settings: browser, baseline: activity.baseline(before: now), now: now,
                habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
            return try renderer.fragmentBytes(LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale))
        }
    }

    // MARK: - Habits

    func habits(_ request: Request, _ context: RequestContext) async throws -> Response {
        let view = try await snapshots.view()
        let (browser, personal) = try await personalSettings(request)
        let key = RenderKey(
            route: DashboardPage.habits.key(), content: view.snapshot.referenceVersion, personal: personal.favorites,
            stale: view.stale?.asOf)
        return try cachedHTML(request, key: key) {
            let page = HabitsListPage(snapshot: view.snapshot, settings: browser)
            return try renderer.pageBytes(
                .habits, page.templateFields(returnTo: DashboardPage.habits.route),
                frame: PageFrame(
                    title: "Habits", tab: .habits, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    func habit(_ request: Request, _ context: RequestContext) async throws -> Response {
        let name = try Self.routeParameter(Links.habitRoute, request, context)
        let range = try Self.range(request)
        let view = try await snapshots.view(live: true)
        let browser = try await settings.load(for: request)
        let paused = Self.isPaused(request)
        let key = pageKey(.habit, item: name, range: range, paused: paused, view, browser.isFavorite(name) ? 1 : 0)
        return try cachedHTML(request, key: key) {
            let page = try habitPage(name, range, view, browser)
            let fragment = try habitFragment(page, view)
            let path = range.url(page.path)
            return try renderer.livePageBytes(
                .habit, page.templateFields, fragment: fragment.body, fragmentTag: fragment.entityTag, path: path,
                frame: PageFrame(
                    title: page.name, tab: .habits, isLive: true, path: path, isPaused: paused,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    func habitFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        let name = try Self.routeParameter(Links.habitRoute, request, context)
        let range = try Self.range(request)
        return try await liveFragment(request, context) { view, browser in
            try renderCache.entry(for: habitFragmentKey(name, range, view)) {
                try renderHabitFragment(try habitPage(name, range, view, browser), view)
            }
        }
    }

    private func habitPage(_ name: String, _ range: HistoryRange, _ view: SnapshotView, _ browser: Settings) throws
        -> HabitDetailPage
    {
        let trend = activity.habitTrend(name, range: range)
        guard var page = HabitDetailPage(habitName: name, snapshot: view.snapshot, settings: browser, trend: trend)
        else {
            throw HTTPError(.notFound, "There is no habit called “\(name)”.")
        }
        page.range = range
        return page
    }

    /// The key of a habit's fragment: no settings in it, so one rendering serves every browser.
    private func habitFragmentKey(_ name: String, _ range: HistoryRange, _ view: SnapshotView) -> RenderKey {
        RenderKey(
            route: LivePage.habit.fragmentKey(item: name) + Self.rangeSuffix(range), content: trendContent(view),
            personal: 0, stale: view.stale?.asOf)
    }

    /// The habit's ranked groups: the same for every browser, so rendered once per version.
    private func habitFragment(_ page: HabitDetailPage, _ view: SnapshotView) throws -> RenderCache.Entry {
        try renderCache.entry(for: habitFragmentKey(page.name, page.range, view)) {
            try renderHabitFragment(page, view)
        }
    }

    private func renderHabitFragment(_ page: HabitDetailPage, _ view: SnapshotView) throws -> [UInt8] {
        try renderer.fragmentBytes(
            LivePage.habit.fragmentTemplate,
            page.fragmentValue(stale: view.stale, now: ActivityHistory.second(snapshots.date)))
    }

    // MARK: - People

    func people(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let sort = PeopleSort.parse(query["sort"]) else {
            throw HTTPError(.badRequest, "Sort people by name, activity or leading.")
        }
        let view = try await snapshots.view()
        let (browser, personal) = try await personalSettings(request)
        var parameters: [String] = []
        if sort != .name { parameters.append("sort=" + sort.rawValue) }
        if followedOnly { parameters.append("followed=1") }
        if !search.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(search)) }
        let selection = parameters.joined(separator: "&")
        let returnTo = DashboardPage.people.route + (selection.isEmpty ? "" : "?" + selection)
        // Activity and leading read the statistics, so those orders change with the whole version.
        let key = RenderKey(
            route: DashboardPage.people.key(query: selection),
            content: sort == .name ? view.snapshot.referenceVersion : view.snapshot.version,
            personal: personal.follows, stale: view.stale?.asOf)
        return try cachedHTML(request, key: key) {
            let page = PeoplePage(
                snapshot: view.snapshot, settings: browser, followedOnly: followedOnly, query: search, sort: sort)
            return try renderer.pageBytes(
                .people, page.templateFields(returnTo: returnTo),
                frame: PageFrame(
                    title: "People", tab: .people, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    func person(_ request: Request, _ context: RequestContext) async throws -> Response {
        let id = try Self.routeParameter(Links.personRoute, request, context)
        let range = try Self.range(request)
        let view = try await snapshots.view(live: true)
        let browser = try await settings.load(for: request)
        let paused = Self.isPaused(request)
        let key = pageKey(.person, item: id, range: range, paused: paused, view, browser.isFollowed(id) ? 1 : 0)
        return try cachedHTML(request, key: key) {
            let page = try personPage(id, range, view, browser)
            let fragment = try personFragment(page, view)
            let path = range.url(page.path)
            return try renderer.livePageBytes(
                .person, page.templateFields, fragment: fragment.body, fragmentTag: fragment.entityTag, path: path,
                frame: PageFrame(
                    title: page.name, tab: .people, isLive: true, path: path, isPaused: paused,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    func personFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        let id = try Self.routeParameter(Links.personRoute, request, context)
        let range = try Self.range(request)
        return try await liveFragment(request, context) { view, browser in
            try renderCache.entry(for: personFragmentKey(id, range, view)) {
                try renderPersonFragment(try personPage(id, range, view, browser), view)
            }
        }
    }

    /// The person's page. Their leading habits come from the snapshot's rankings (the same rule as
    /// `/userLeadingStats`: every user whose count equals the habit's top count), so no id from a URL ever
    /// reaches the upstream.
    private func personPage(_ id: String, _ range: HistoryRange, _ view: SnapshotView, _ browser: Settings) throws
        -> PersonDetailPage
    {
        let trend = activity.personTrend(id, range: range)
        guard var page = PersonDetailPage(userID: id, snapshot: view.snapshot, settings: browser, trend: trend) else {
            throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
        }
        page.range = range
        return page
    }

    /// The key of a person's fragment: no settings in it, so one rendering serves every browser.
    private func personFragmentKey(_ id: String, _ range: HistoryRange, _ view: SnapshotView) -> RenderKey {
        RenderKey(
            route: LivePage.person.fragmentKey(item: id) + Self.rangeSuffix(range), content: trendContent(view),
            personal: 0, stale: view.stale?.asOf)
    }

    /// The person's counts: the same for every browser, so rendered once per version.
    private func personFragment(_ page: PersonDetailPage, _ view: SnapshotView) throws -> RenderCache.Entry {
        try renderCache.entry(for: personFragmentKey(page.userID, page.range, view)) {
            try renderPersonFragment(page, view)
        }
    }

    private func renderPersonFragment(_ page: PersonDetailPage, _ view: SnapshotView) throws -> [UInt8] {
        try renderer.fragmentBytes(
            LivePage.person.fragmentTemplate,
            page.fragmentValue(stale: view.stale, now: ActivityHistory.second(snapshots.date)))
    }

    // MARK: - Log Habit

    func logPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let view = try await snapshots.view()
        let (browser, personal) = try await personalSettings(request)
        let habits = view.snapshot.inputs.habits
        // Only a habit that exists is confirmed, so a crafted link cannot make the page claim anything else.
        let logged = query["logged"].flatMap { habits[$0] == nil ? nil : $0 }
        // Your count before the log, for "You passed …" (issue 22); the page checks it against the data.
        let previous = logged == nil ? nil : query["from"].flatMap { Int($0) }
        let failure = query["error"].map { LogFailure(code: $0, habitName: query["habit"], habits: habits).message }
        var variant: [String] = []
        if let logged { variant.append("logged=" + PercentEncoding.encodeQueryComponent(logged)) }
        if let previous { variant.append("from=\(previous)") }
        if let failure { variant.append("failure=" + PercentEncoding.encodeQueryComponent(failure)) }
        // The buttons show your counts, so the page changes with the statistics too.
        let key = RenderKey(
            route: DashboardPage.log.key(query: variant.joined(separator: "&")), content: view.snapshot.version,
            personal: personal.favorites, stale: view.stale?.asOf)
        return try cachedHTML(request, key: key) {
            let page = LogHabitPage(
                snapshot: view.snapshot, settings: browser, loggedHabitName: logged, previousCount: previous)
            return try renderer.pageBytes(
                .log, page.templateFields(failure: failure),
                frame: PageFrame(
                    title: "Log Habit", tab: .log, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    // MARK: - Keys and answers

    /// The browser's settings and the personal parts of render keys made from them.
    private func personalSettings(_ request: Request) async throws -> (Settings, PersonalDigests.Digests) {
        let browser = try await settings.loadVersioned(for: request)
        return (browser.value, personalDigests.of(browser))
    }

    /// The key of a live page (of `item`, paused or not): the snapshot's version and the trend slot (its fragment shows counts and sparklines).
    private func pageKey(
        _ page: LivePage, item: String? = nil, range: HistoryRange = .hour, paused: Bool, _ view: SnapshotView,
        _ personal: UInt64
    ) -> RenderKey {
        let query = [range.query, paused ? "live=0" : ""].filter { !$0.isEmpty }.joined(separator: "&")
        return RenderKey(
            route: page.pageKey(item: item, query: query), content: trendContent(view), personal: personal,
            stale: view.stale?.asOf)
    }

    /// The cached (or freshly rendered) bytes of `key`: 304 when `If-None-Match` names their ETag, else 200.
    func cachedHTML(_ request: Request, key: RenderKey, render: () throws -> [UInt8]) throws -> Response {
        let entry = try renderCache.entry(for: key, render: render)
        return recordingVisit(
            hasCurrentCopy(request, of: entry) ? notModified(entry, request) : ok(entry, request), request)
    }
}
