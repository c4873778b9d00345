import DashboardCore
import HTTPServer

/// The pages of one habit and one person (`ItemPage`): one handler for both, keyed by their `PageDeclaration`s.
struct ItemPageHandler<Page: ItemPage>: PageHandler {
    /// Live: the page's view keeps the snapshot refreshing, and its region is polled.
    static var isLive: Bool { true }
    /// The state, renderer, page caching and live polls the page is built from.
    let web: WebContext

    /// `GET /habits/<name>` or `/people/<id>`: the page, with its fragment (shared by every browser) inside.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let item = try RequestParameters.route(Page.kind.route, request, context)
        let range = try RequestParameters.range(request)
        let number = Page.kind.isPaged ? try RequestParameters.page(request) : 1
        return { [self] view, browser in try page(item, range, number, request, context, view, browser) }
    }

    private func page(
        _ item: String, _ range: HistoryRange, _ number: Int, _ request: Request,
        _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let paused = PageCaching.isPaused(request)
        let query = PageCaching.liveQuery(range: range, paused: paused)
        let key = web.pages.key(Page.declaration, item: item, query: query, page: number, view, browser.settings)
        return try web.pages.cachedHTML(request, context, key: key, for: browser) {
            let page: Page = try model(item, range, number, view, browser.settings.value)
            let fragment = try fragmentEntry(page, item, range, number, view)
            // The live region polls the page shown (issue 21 point 4), so its source names the page too.
            let path = Pager.url(range.url(page.path), page: number)
            return try web.renderer.livePageBytes(
                Page.kind.live, page.templateFields, fragment: fragment.body, fragmentTag: fragment.entityTag,
                path: path,
                frame: PageFrame(
                    title: page.name, tab: Page.kind.tab, isLive: true, path: path, isPaused: paused,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    /// `GET /fragments/habits/<name>` or `/fragments/people/<id>`: the page's live region, held by `LiveFragments`.
    func fragment(_ request: Request, _ context: RequestContext) throws -> Answer {
        let item = try RequestParameters.route(Page.kind.route, request, context)
        let range = try RequestParameters.range(request)
        let number = Page.kind.isPaged ? try RequestParameters.page(request) : 1
        return try web.live.answer(request, context) { [self] view, _ in
            try fragmentEntry(nil, item, range, number, view)
        }
    }

    /// The item's page `number` for `settings`; a 404 when the snapshot does not know the item or the page is past
    /// the list's last.
    private func model(
        _ item: String, _ range: HistoryRange, _ number: Int, _ view: SnapshotView, _ settings: Settings
    ) throws -> Page {
        guard
            let page = Page(
                item: item, snapshot: view.snapshot, settings: settings, history: web.activity, range: range,
                page: number)
        else {
            throw HTTPError(.notFound, Page.kind.unknown(item))
        }
        guard page.pager != nil else {
            throw RequestParameters.pastLastPage(number, pages: page.pageCount, of: Page.kind.listName(page.name))
        }
        return page
    }

    /// The item's fragment, rendered once per version for every browser: its key takes no settings, and it is
    /// rendered from `page` when the caller has one (its settings change nothing the fragment shows, which
    /// `PageDeclarationTests` proves), else from a page built with the default settings.
    private func fragmentEntry(
        _ page: Page?, _ item: String, _ range: HistoryRange, _ number: Int, _ view: SnapshotView
    ) throws -> RenderCache.Entry {
        try web.renderCache.entry(for: fragmentKey(item, range, view, page: number)) {
            let page = try page ?? model(item, range, number, view, web.state.settings.defaults.value)
            return try web.renderer.fragmentBytes(
                Page.kind.live.fragmentTemplate,
                page.fragmentValue(
                    stale: view.stale, now: ActivityHistory.second(web.activity.pageDate(now: web.state.date))))
        }
    }

    /// The key of an item's fragment: made without any settings, so one rendering serves every browser.
    func fragmentKey(
        _ item: String, _ range: HistoryRange, _ view: SnapshotView, page number: Int = 1
    ) -> RenderKey {
        Page.fragmentDeclaration.sharedKey(
            item: item, query: range.query, listPage: number, view: view, trendKey: web.activity.trendKey)
    }
}
