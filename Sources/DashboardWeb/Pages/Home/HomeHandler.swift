import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// Home (`GET /` and its live fragment): the favourites' leaderboard, the people followed, "Happening now".
extension DashboardApp {
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

    /// Home's answer: now when the view and the settings are in memory, else `home` awaited.
    func homeAnswer(_ request: Request, _ context: RequestContext) throws -> Answer {
        if let response = try answerNow(request, live: true, { [self] in try home(request, context, $0, $1) }) {
            return .now(response)
        }
        return .later { [self] in try await home(request, context) }
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
}
