import DashboardCore
import HTTPServer

/// The pages of one habit and one person (`ItemPage`): one path for both, keyed by their `PageDeclaration`s.
extension DashboardApp {
    /// `GET /habits/<name>` or `/people/<id>`: the page, with its fragment (shared by every browser) inside.
    func itemPage<Page: ItemPage>(_ type: Page.Type, _ request: Request, _ context: RequestContext) throws -> PageBody {
        let item = try Self.routeParameter(Page.kind.route, request, context)
        let range = try Self.range(request)
        let number = Page.kind.isPaged ? try Self.page(request) : 1
        return { [self] view, browser in try itemPage(Page.self, item, range, number, request, context, view, browser) }
    }

    private func itemPage<Page: ItemPage>(
        _ type: Page.Type, _ item: String, _ range: HistoryRange, _ number: Int, _ request: Request,
        _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let paused = Self.isPaused(request)
        let query = Self.liveQuery(range: range, paused: paused)
        let key = key(Page.declaration, item: item, query: query, page: number, view, browser.settings)
        return try cachedHTML(request, context, key: key, for: browser) {
            let page: Page = try itemModel(item, range, number, view, browser.settings.value)
            let fragment = try itemFragment(page, item, range, number, view)
            // The live region polls the page shown (issue 21 point 4), so its source names the page too.
            let path = Pager.url(range.url(page.path), page: number)
            return try renderer.livePageBytes(
                Page.kind.live, page.templateFields, fragment: fragment.body, fragmentTag: fragment.entityTag,
                path: path,
                frame: PageFrame(
                    title: page.name, tab: Page.kind.tab, isLive: true, path: path, isPaused: paused,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }

    /// `GET /fragments/habits/<name>` or `/fragments/people/<id>`: the page's live region, held by `liveFragment`.
    func itemFragment<Page: ItemPage>(_ type: Page.Type, _ request: Request, _ context: RequestContext) async throws
        -> Response
    {
        let item = try Self.routeParameter(Page.kind.route, request, context)
        let range = try Self.range(request)
        let number = Page.kind.isPaged ? try Self.page(request) : 1
        return try await liveFragment(request, context) { view, _ in
            try itemFragment(nil as Page?, item, range, number, view)
        }
    }

    /// The item's page `number` for `settings`; a 404 when the snapshot does not know the item or the page is past
    /// the list's last.
    private func itemModel<Page: ItemPage>(
        _ item: String, _ range: HistoryRange, _ number: Int, _ view: SnapshotView, _ settings: Settings
    ) throws -> Page {
        guard
            let page = Page(
                item: item, snapshot: view.snapshot, settings: settings, history: activity, range: range, page: number)
        else {
            throw HTTPError(.notFound, Page.kind.unknown(item))
        }
        guard page.pager != nil else {
            throw Self.pastLastPage(number, pages: page.pageCount, of: Page.kind.listName(page.name))
        }
        return page
    }

    /// The item's fragment, rendered once per version for every browser: its key takes no settings, and it is
    /// rendered from `page` when the caller has one (its settings change nothing the fragment shows, which
    /// `PageDeclarationTests` proves), else from a page built with the default settings.
    private func itemFragment<Page: ItemPage>(
        _ page: Page?, _ item: String, _ range: HistoryRange, _ number: Int, _ view: SnapshotView
    ) throws -> RenderCache.Entry {
        try renderCache.entry(for: itemFragmentKey(Page.self, item, range, view, page: number)) {
            let page = try page ?? itemModel(item, range, number, view, state.settings.defaults.value)
            return try renderer.fragmentBytes(
                Page.kind.live.fragmentTemplate,
                page.fragmentValue(
                    stale: view.stale, now: ActivityHistory.second(activity.pageDate(now: state.date))))
        }
    }

    /// The key of an item's fragment: made without any settings, so one rendering serves every browser.
    func itemFragmentKey<Page: ItemPage>(
        _ type: Page.Type, _ item: String, _ range: HistoryRange, _ view: SnapshotView, page number: Int = 1
    ) -> RenderKey {
        Page.fragmentDeclaration.sharedKey(
            item: item, query: range.query, listPage: number, view: view, trendKey: activity.trendKey)
    }
}
