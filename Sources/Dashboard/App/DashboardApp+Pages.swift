import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

/// Every GET page is a function of (snapshot, the browser's settings): its bytes and their ETag are rendered once per
/// `RenderKey` and served from `RenderCache` until the data changes, so a warm `If-None-Match` renders nothing.
extension DashboardApp {
    // MARK: - Home

    func home(_ request: Request, _ context: RequestContext) async throws -> Response {
        let versioned = try await settings.loadVersioned(for: request)
        let browser = versioned.value
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
        // The last visit (a signed cookie) is part of the request, so of the page's variant.
        let variant = [Self.liveQuery(paused: paused), since.map { "since=\($0.lastVisit.second)" } ?? ""]
            .filter { !$0.isEmpty }.joined(separator: "&")
        let key = key(HomePage.declaration, query: variant, view, versioned)
        return try cachedHTML(request, key: key) {
            let fragment = try homeFragment(view, versioned)
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

    private func homeFragment(_ view: SnapshotView, _ browser: Versioned<Settings>) throws -> RenderCache.Entry {
        try renderCache.entry(for: key(HomePage.fragmentDeclaration, view, browser)) {
            let now = activity.pageDate(now: snapshots.date)
            let page = HomePage(
                snapshot: view.snapshot, settings: browser.value, baseline: activity.baseline(before: now), now: now,
                habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
            return try renderer.fragmentBytes(LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale))
        }
    }

    // MARK: - Habits

    func habits(_ request: Request, _ context: RequestContext) async throws -> Response {
        let view = try await snapshots.view()
        let browser = try await settings.loadVersioned(for: request)
        return try cachedHTML(request, key: key(HabitsListPage.declaration, view, browser)) {
            let page = HabitsListPage(snapshot: view.snapshot, settings: browser.value)
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
        let browser = try await settings.loadVersioned(for: request)
        let paused = Self.isPaused(request)
        let query = Self.liveQuery(range: range, paused: paused)
        return try cachedHTML(request, key: key(HabitDetailPage.declaration, item: name, query: query, view, browser)) {
            let page = try habitPage(name, range, view, browser.value)
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
            try renderCache.entry(for: habitFragmentKey(name, range, view, browser)) {
                try renderHabitFragment(try habitPage(name, range, view, browser.value), view)
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
    private func habitFragmentKey(
        _ name: String, _ range: HistoryRange, _ view: SnapshotView, _ browser: Versioned<Settings>
    ) -> RenderKey {
        key(HabitDetailPage.fragmentDeclaration, item: name, query: range.query, view, browser)
    }

    /// The habit's ranked groups: the same for every browser, so rendered once per version.
    private func habitFragment(_ page: HabitDetailPage, _ view: SnapshotView) throws -> RenderCache.Entry {
        try renderCache.entry(for: habitFragmentKey(page.name, page.range, view, settings.store.defaults)) {
            try renderHabitFragment(page, view)
        }
    }

    private func renderHabitFragment(_ page: HabitDetailPage, _ view: SnapshotView) throws -> [UInt8] {
        try renderer.fragmentBytes(
            LivePage.habit.fragmentTemplate,
            page.fragmentValue(stale: view.stale, now: ActivityHistory.second(activity.pageDate(now: snapshots.date))))
    }

    // MARK: - People

    func people(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = PeoplePage.normalized(query["q"] ?? "")
        guard let sort = PeopleSort.parse(query["sort"]) else {
            throw HTTPError(.badRequest, "Sort people by name, activity or leading.")
        }
        let view = try await snapshots.view()
        let browser = try await settings.loadVersioned(for: request)
        var parameters: [String] = []
        if sort != .name { parameters.append("sort=" + sort.rawValue) }
        if followedOnly { parameters.append("followed=1") }
        if !search.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(search)) }
        let selection = parameters.joined(separator: "&")
        let returnTo = DashboardPage.people.route + (selection.isEmpty ? "" : "?" + selection)
        // Activity and leading read the statistics, so those orders change with the whole version.
        return try cachedHTML(request, key: key(PeoplePage.declaration(sort: sort), query: selection, view, browser)) {
            let page = PeoplePage(
                snapshot: view.snapshot, settings: browser.value, followedOnly: followedOnly, query: search, sort: sort)
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
        let browser = try await settings.loadVersioned(for: request)
        let paused = Self.isPaused(request)
        let query = Self.liveQuery(range: range, paused: paused)
        return try cachedHTML(request, key: key(PersonDetailPage.declaration, item: id, query: query, view, browser)) {
            let page = try personPage(id, range, view, browser.value)
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
            try renderCache.entry(for: personFragmentKey(id, range, view, browser)) {
                try renderPersonFragment(try personPage(id, range, view, browser.value), view)
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
    private func personFragmentKey(
        _ id: String, _ range: HistoryRange, _ view: SnapshotView, _ browser: Versioned<Settings>
    ) -> RenderKey {
        key(PersonDetailPage.fragmentDeclaration, item: id, query: range.query, view, browser)
    }

    /// The person's counts: the same for every browser, so rendered once per version.
    private func personFragment(_ page: PersonDetailPage, _ view: SnapshotView) throws -> RenderCache.Entry {
        try renderCache.entry(for: personFragmentKey(page.userID, page.range, view, settings.store.defaults)) {
            try renderPersonFragment(page, view)
        }
    }

    private func renderPersonFragment(_ page: PersonDetailPage, _ view: SnapshotView) throws -> [UInt8] {
        try renderer.fragmentBytes(
            LivePage.person.fragmentTemplate,
            page.fragmentValue(stale: view.stale, now: ActivityHistory.second(activity.pageDate(now: snapshots.date))))
    }

    // MARK: - Log Habit

    func logPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let view = try await snapshots.view()
        let browser = try await settings.loadVersioned(for: request)
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
        let key = key(LogHabitPage.declaration, query: variant.joined(separator: "&"), view, browser)
        return try cachedHTML(request, key: key) {
            let page = LogHabitPage(
                snapshot: view.snapshot, settings: browser.value, loggedHabitName: logged, previousCount: previous)
            return try renderer.pageBytes(
                .log, page.templateFields(failure: failure),
                frame: PageFrame(
                    title: "Log Habit", tab: .log, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    // MARK: - Keys and answers

    /// The render key `declaration` gives for `view` and the browser's settings: the one place keys are made.
    func key(
        _ declaration: PageDeclaration, item: String? = nil, query: String = "", _ view: SnapshotView,
        _ browser: Versioned<Settings>
    ) -> RenderKey {
        declaration.key(
            item: item, query: query, view: view, settings: browser, digests: personalDigests,
            trendSlot: activity.latestSlot)
    }

    /// The variant of a live page in its key: the range shown and whether it is paused.
    static func liveQuery(range: HistoryRange = .hour, paused: Bool) -> String {
        [range.query, paused ? "live=0" : ""].filter { !$0.isEmpty }.joined(separator: "&")
    }

    /// The cached (or freshly rendered) bytes of `key`: 304 when `If-None-Match` names their ETag, else 200.
    func cachedHTML(_ request: Request, key: RenderKey, render: () throws -> [UInt8]) throws -> Response {
        let entry = try renderCache.entry(for: key, render: render)
        return recordingVisit(
            hasCurrentCopy(request, of: entry) ? notModified(entry, request) : ok(entry, request), request)
    }
}
