import HTTPServer

/// The pages of one habit and one person (`ItemPage`): one path for both, keyed by their `PageDeclaration`s.
extension DashboardApp {
    /// `GET /habits/<name>` or `/people/<id>`: the page, with its fragment (shared by every browser) inside.
    func itemPage<Page: ItemPage>(_ type: Page.Type, _ request: Request, _ context: RequestContext) throws -> PageBody {
        let item = try Self.routeParameter(Page.kind.route, request, context)
        let range = try Self.range(request)
        return { view, browser in try itemPage(Page.self, item, range, request, view, browser) }
    }

    private func itemPage<Page: ItemPage>(
        _ type: Page.Type, _ item: String, _ range: HistoryRange, _ request: Request, _ view: SnapshotView,
        _ browser: Versioned<Settings>
    ) throws -> Response {
        let paused = Self.isPaused(request)
        let query = Self.liveQuery(range: range, paused: paused)
        return try cachedHTML(request, key: key(Page.declaration, item: item, query: query, view, browser)) {
            let page: Page = try itemModel(item, range, view, browser.value)
            let fragment = try itemFragment(page, item, range, view)
            let path = range.url(page.path)
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
        return try await liveFragment(request, context) { view, _ in
            try itemFragment(nil as Page?, item, range, view)
        }
    }

    /// The item's page for `settings`; a 404 when the snapshot does not know the item.
    private func itemModel<Page: ItemPage>(
        _ item: String, _ range: HistoryRange, _ view: SnapshotView, _ settings: Settings
    ) throws -> Page {
        guard let page = Page(item: item, snapshot: view.snapshot, settings: settings, history: activity, range: range)
        else {
            throw HTTPError(.notFound, Page.kind.unknown(item))
        }
        return page
    }

    /// The item's fragment, rendered once per version for every browser: its key takes no settings, and it is
    /// rendered from `page` when the caller has one (its settings change nothing the fragment shows, which
    /// `PageDeclarationTests` proves), else from a page built with the default settings.
    private func itemFragment<Page: ItemPage>(
        _ page: Page?, _ item: String, _ range: HistoryRange, _ view: SnapshotView
    ) throws -> RenderCache.Entry {
        try renderCache.entry(for: itemFragmentKey(Page.self, item, range, view)) {
            let page = try page ?? itemModel(item, range, view, settings.store.defaultValue)
            return try renderer.fragmentBytes(
                Page.kind.live.fragmentTemplate,
                page.fragmentValue(stale: view.stale, now: ActivityHistory.second(snapshots.date)))
        }
    }

    /// The key of an item's fragment: made without any settings, so one rendering serves every browser.
    func itemFragmentKey<Page: ItemPage>(
        _ type: Page.Type, _ item: String, _ range: HistoryRange, _ view: SnapshotView
    ) -> RenderKey {
        Page.fragmentDeclaration.sharedKey(
            item: item, query: range.query, view: view, trendSlot: activity.latestSlot)
    }
}
