import DashboardCore
import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

/// Every GET page is a function of (snapshot, the browser's settings): its bytes and their ETag are rendered once per
/// `RenderKey` and served from `RenderCache` until the data changes, so a warm `If-None-Match` renders nothing.
extension DashboardApp {
    // MARK: - Home

    func home(_ request: Request, _ context: RequestContext) async throws -> Response {
        let loaded = try await settings.browser(of: request)
        let browser = loaded.settings.value
        let view: SnapshotView
        do {
            view = try await state.view(live: true, activity: context.activity)
        } catch  where browser.favoriteHabits.isEmpty && browser.followedUserIDs.isEmpty {
            // Nothing to show from the upstream anyway: the introduction needs no data (issue 10 point 8).
            return try renderer.livePage(
                .home, HomePage.pageFields(),
                fragmentValue: try HomePage(leaderboard: [], following: []).fragmentValue(
                    stale: nil, renderer: renderer),
                path: LivePage.home.route, frame: homeFrame(request))
        }
        return try home(request, context, view, loaded)
    }

    /// `home` at once, when the view and the settings are in memory.
    func homeAtOnce(_ request: Request, _ context: RequestContext) throws -> Response? {
        try answerAtOnce(request, live: true) { try home(request, context, $0, $1) }
    }

    private func homeFrame(_ request: Request) -> PageFrame {
        PageFrame(title: "Home", tab: .home, isLive: true, path: LivePage.home.route, isPaused: Self.isPaused(request))
    }

    private func home(
        _ request: Request, _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let versioned = browser.settings
        var frame = homeFrame(request)
        frame.colorsVersion = view.snapshot.referenceVersion
        let since = sinceLastVisit(request, view, versioned.value)
        // The last visit (a signed cookie) is part of the request, so of the page's variant.
        let variant = PageDeclaration.joined(
            Self.liveQuery(paused: frame.isPaused), since.map { "since=\($0.lastVisit.second)" } ?? "")
        let key = key(HomePage.declaration, query: variant, view, versioned)
        return try cachedHTML(request, context, key: key, for: browser) {
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
            let now = activity.pageDate(now: state.date)
            let page = HomePage(
                snapshot: view.snapshot, settings: browser.value, baseline: activity.baseline(before: now), now: now,
                habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
            return try renderer.fragmentBytes(
                LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale, renderer: renderer))
        }
    }

    // MARK: - Habits

    func habits(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let number = try Self.page(request)
        return { [self] view, browser in
            try cachedHTML(
                request, context, key: key(HabitsListPage.declaration, page: number, view, browser.settings),
                for: browser
            ) {
                let page = HabitsListPage(snapshot: view.snapshot, settings: browser.settings.value, page: number)
                guard page.pager != nil else {
                    let count = view.snapshot.sortedHabits.count
                    throw Self.pastLastPage(
                        number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
                }
                return try renderer.pageBytes(
                    .habits, page.templateFields(listPath: DashboardPage.habits.route),
                    frame: PageFrame(
                        title: "Habits", tab: .habits, staleNotice: view.stale,
                        colorsVersion: view.snapshot.referenceVersion))
            }
        }
    }

    // MARK: - People

    func people(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = PeoplePage.normalized(query["q"] ?? "")
        guard let sort = PeopleSort.parse(query["sort"]) else {
            throw HTTPError(.badRequest, "Sort people by name, activity or leading.")
        }
        return { [self] view, browser in
            try people(view, browser, followedOnly: followedOnly, search: search, sort: sort, request, context)
        }
    }

    private func people(
        _ view: SnapshotView, _ browser: LoadedBrowser, followedOnly: Bool, search: String, sort: PeopleSort,
        _ request: Request, _ context: RequestContext
    ) throws -> Response {
        var parameters: [String] = []
        if sort != .name { parameters.append("sort=" + sort.rawValue) }
        if followedOnly { parameters.append("followed=1") }
        if !search.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(search)) }
        let selection = parameters.joined(separator: "&")
        let listPath = DashboardPage.people.route + (selection.isEmpty ? "" : "?" + selection)
        let number = try Self.page(request)
        // Activity and leading read the statistics, so those orders change with the whole version.
        let key = key(PeoplePage.declaration(sort: sort), query: selection, page: number, view, browser.settings)
        return try cachedHTML(request, context, key: key, for: browser) {
            let page = PeoplePage(
                snapshot: view.snapshot, settings: browser.settings.value, followedOnly: followedOnly, query: search,
                sort: sort,
                page: number)
            guard page.pager != nil else {
                let pages = Pager.pageCount(page.matchCount, size: Pager.peoplePerPage)
                throw Self.pastLastPage(number, pages: pages, of: "people")
            }
            return try renderer.pageBytes(
                .people, page.templateFields(listPath: listPath, renderer: renderer),
                frame: PageFrame(
                    title: "People", tab: .people, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    // MARK: - Log Habit

    func logPage(_ request: Request, _ context: RequestContext) throws -> PageBody {
        { [self] view, browser in try logPage(request, context, view, browser) }
    }

    private func logPage(
        _ request: Request, _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let query = request.query
        let habits = view.snapshot.inputs.habits
        // Only a habit that exists is confirmed, so a crafted link cannot make the page claim anything else.
        let logged = query["logged"].flatMap { habits[$0] == nil ? nil : $0 }
        // Your count before the log, for "You passed …" (issue 22); the page checks it against the data.
        let previous = logged == nil ? nil : query["from"].flatMap { Int($0) }
        let failure = query["error"].flatMap {
            LogFailure(code: $0, habitName: query["habit"], habits: habits)?.message
        }
        var variant: [String] = []
        if let logged { variant.append("logged=" + PercentEncoding.encodeQueryComponent(logged)) }
        if let previous { variant.append("from=\(previous)") }
        if let failure { variant.append("failure=" + PercentEncoding.encodeQueryComponent(failure)) }
        let number = try Self.page(request)
        // The buttons show your counts, so the page changes with the statistics too.
        let key = key(
            LogHabitPage.declaration, query: variant.joined(separator: "&"), page: number, view, browser.settings)
        return try cachedHTML(request, context, key: key, for: browser) {
            let page = LogHabitPage(
                snapshot: view.snapshot, settings: browser.settings.value, loggedHabitName: logged,
                previousCount: previous, page: number)
            guard page.pager != nil else {
                let count = view.snapshot.sortedHabits.count
                throw Self.pastLastPage(number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
            }
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
        _ declaration: PageDeclaration, item: String? = nil, query: String = "", page: Int = 1, _ view: SnapshotView,
        _ browser: Versioned<Settings>
    ) -> RenderKey {
        declaration.key(
            item: item, query: query, listPage: page, view: view, settings: browser, digests: personalDigests,
            trendSlot: activity.latestSlot)
    }

    /// The variant of a live page in its key: the range shown and whether it is paused.
    static func liveQuery(range: HistoryRange = .hour, paused: Bool) -> String {
        PageDeclaration.joined(range.query, paused ? "live=0" : "")
    }

    /// The cached (or freshly rendered) bytes of `key` for `browser`: 304 when `If-None-Match` names their ETag,
    /// else 200. Reusable: given at once, the server gives it again to the same request within `answerEpoch`.
    func cachedHTML(
        _ request: Request, _ context: RequestContext, key: RenderKey, for browser: LoadedBrowser,
        render: () throws -> [UInt8]
    ) throws -> Response {
        let entry = try renderCache.entry(for: key, render: render)
        var response = recordingVisit(
            hasCurrentCopy(request, of: entry) ? notModified(entry, request) : ok(entry, request), request, context,
            browserID: browser.id)
        response.isReusable = true
        return response
    }
}
