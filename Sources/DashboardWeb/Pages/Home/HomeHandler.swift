import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// Home (`GET /` and its live fragment): the favourites' leaderboard, the people followed, "Happening now".
struct HomeHandler: Sendable {
    /// The state, renderer, page caching, visits and live polls Home is built from.
    let web: WebContext

    /// Home's answer, awaiting the view and the settings; with no data and nothing chosen, the introduction.
    func page(_ request: Request, _ context: RequestContext) async throws -> Response {
        let renderer = web.renderer
        let loaded = try await web.settings.browser(of: request)
        let browser = loaded.settings.value
        let view: SnapshotView
        do {
            view = try await web.state.view(live: true, activity: context.activity)
        } catch  where browser.favoriteHabits.isEmpty && browser.followedUserIDs.isEmpty {
            // Nothing to show from the upstream anyway: the introduction needs no data (issue 10 point 8).
            return try renderer.livePage(
                .home, HomePage.pageFields(),
                fragmentValue: try HomePage(leaderboard: [], following: []).fragmentValue(
                    stale: nil, renderer: renderer),
                path: LivePage.home.route, frame: homeFrame(request))
        }
        return try page(request, context, view, loaded)
    }

    /// Home's answer: now when the view and the settings are in memory, else `page` awaited.
    func answer(_ request: Request, _ context: RequestContext) throws -> Answer {
        if let response = try web.answerNow(request, live: true, { [self] in try page(request, context, $0, $1) }) {
            return .now(response)
        }
        return .later { [self] in try await page(request, context) }
    }

    private func homeFrame(_ request: Request) -> PageFrame {
        PageFrame(
            title: "Home", tab: .home, isLive: true, path: LivePage.home.route, isPaused: PageCaching.isPaused(request))
    }

    private func page(
        _ request: Request, _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let versioned = browser.settings
        var frame = homeFrame(request)
        frame.colorsVersion = view.snapshot.referenceVersion
        let since = web.visits.sinceLastVisit(request, view, versioned.value)
        // The last visit (a signed cookie) is part of the request, so of the page's variant.
        let variant = PageDeclaration.joined(
            PageCaching.liveQuery(paused: frame.isPaused), since.map { "since=\($0.lastVisit.second)" } ?? "")
        let key = web.pages.key(HomePage.declaration, query: variant, view, versioned)
        return try web.pages.cachedHTML(request, context, key: key, for: browser) {
            let fragment = try fragmentEntry(view, versioned)
            return try web.renderer.livePageBytes(
                .home, HomePage.pageFields(sinceLastVisit: since?.templateValue ?? .null), fragment: fragment.body,
                fragmentTag: fragment.entityTag, path: LivePage.home.route, frame: frame)
        }
    }

    /// `GET /fragments/home`: Home's live region, held by `LiveFragments`.
    func fragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        try await web.live.answer(request, context) { view, browser in
            try fragmentEntry(view, browser)
        }
    }

    private func fragmentEntry(_ view: SnapshotView, _ browser: Versioned<Settings>) throws -> RenderCache.Entry {
        let activity = web.activity
        return try web.renderCache.entry(for: web.pages.key(HomePage.fragmentDeclaration, view, browser)) {
            let now = activity.pageDate(now: web.state.date)
            let page = HomePage(
                snapshot: view.snapshot, settings: browser.value, baseline: activity.baseline(before: now), now: now,
                habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
            return try web.renderer.fragmentBytes(
                LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale, renderer: web.renderer))
        }
    }
}
