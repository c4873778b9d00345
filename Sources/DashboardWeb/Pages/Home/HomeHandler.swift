import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// Home (`GET /` and its live fragment): the favourites' leaderboard, the people followed, "Happening now".
///
/// A browser with a leaderboard or a Following list gets its page composed (issue 46 point 1): the frame and the
/// fragment's sections are skeletons shared by every browser, its cards and rows are chunks kept by content, and its
/// own parts ("since your last visit", the region's ETag) are put in their places. The introduction, the same for
/// every browser without either, is rendered and kept whole.
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
        switch try fragment(view, versioned) {
        case .introduction(let fragment):
            // The last visit (a signed cookie) is part of the request, so of the page's variant.
            let variant = PageDeclaration.joined(
                PageCaching.liveQuery(paused: frame.isPaused), since.map { "since=\($0.lastVisit.second)" } ?? "")
            let key = web.pages.key(HomePage.declaration, query: variant, view, versioned)
            return try web.pages.cachedHTML(request, context, key: key, for: browser) {
                try web.renderer.livePageBytes(
                    .home, HomePage.pageFields(sinceLastVisit: try sinceHTML(since, prefixed: false)),
                    fragment: fragment.body, fragmentTag: fragment.entityTag, path: LivePage.home.route, frame: frame)
            }
        case .composed(let fragment):
            let shared = web.pages.sharedKey(
                HomePage.skeletonDeclaration, query: PageCaching.liveQuery(paused: frame.isPaused), view)
            let skeleton = try web.renderCache.skeleton(for: shared) {
                try web.renderer.liveSkeleton(.home, path: LivePage.home.route, frame: frame)
            }
            let composed = try skeleton.compose { place, composed in
                switch place {
                case "sinceLastVisit": composed.append(literal: try sinceHTML(since, prefixed: true))
                case "liveETag": composed.append(literal: HTMLEscaping.escape(fragment.entityTag))
                default: composed.append(contentsOf: fragment)
                }
            }
            return web.pages.composedHTML(request, context, composed, for: browser)
        }
    }

    /// "Since your last visit" as HTML, empty when not shown; `prefixed` puts its links under the path prefix (a
    /// composed page's parts are not passed through it again).
    private func sinceHTML(_ since: SinceLastVisit?, prefixed: Bool) throws -> String {
        guard let since else { return "" }
        let template = "partials/since-last-visit"
        let bytes =
            prefixed
            ? try web.renderer.fragmentBytes(template, since.templateValue)
            : try web.renderer.templates.render(template, since.templateValue)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `GET /fragments/home`: Home's live region, held by `LiveFragments`.
    func fragment(_ request: Request, _ context: RequestContext) throws -> Answer {
        try web.live.answer(request, context) { view, browser in
            switch try fragment(view, browser) {
            case .introduction(let entry): entry
            case .composed(let fragment): RenderCache.Entry(body: fragment.body, entityTag: fragment.entityTag)
            }
        }
    }

    /// Home's live region for a browser.
    private enum Fragment {
        /// The introduction, kept whole.
        case introduction(RenderCache.Entry)
        /// The leaderboard and Following, composed for the browser.
        case composed(ComposedPage)
    }

    private func fragment(_ view: SnapshotView, _ browser: Versioned<Settings>) throws -> Fragment {
        let activity = web.activity
        let now = activity.pageDate(now: web.state.date)
        let (snapshot, settings) = (view.snapshot, browser.value)
        // Only the habits and people are found per request; their cards and rows are made once per skeleton.
        let habits = HomePage.leaderboardHabits(snapshot: snapshot, settings: settings)
        let places = HomePage.followedPlaces(snapshot: snapshot, settings: settings)
        guard !habits.isEmpty || !places.isEmpty else {
            return .introduction(
                try web.renderCache.entry(for: web.pages.key(HomePage.fragmentDeclaration, view, browser)) {
                    let page = HomePage(
                        snapshot: snapshot, settings: settings, baseline: activity.baseline(before: now),
                        now: now, habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
                    return try web.renderer.fragmentBytes(
                        LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale, renderer: web.renderer))
                })
        }
        let variant = "leaderboard=\(!habits.isEmpty)&following=\(!places.isEmpty)"
        let shared = web.pages.sharedKey(HomePage.fragmentSkeletonDeclaration, query: variant, view)
        let skeleton = try web.renderCache.skeleton(for: shared) {
            try web.renderer.fragmentSkeleton(
                LivePage.home.fragmentTemplate,
                HomePage.composedFragmentFields(
                    stale: view.stale, hasLeaderboard: !habits.isEmpty, hasFollowing: !places.isEmpty),
                places: ["leaderboardCards", "followingRows"], layout: ChunkMemo<HomeChunk>(allowance: 128 << 10))
        }
        guard let memo = skeleton.layout(as: ChunkMemo<HomeChunk>.self) else {
            preconditionFailure("Home's fragment skeleton is made with its chunk memo")
        }
        let renderer = web.renderer
        return .composed(
            try skeleton.compose { place, composed in
                if place == "leaderboardCards" {
                    // A habit's card is the same for everyone within the skeleton's version and trend key: built, with
                    // its trend and latest change of lead, only the first time.
                    for habit in habits {
                        composed.append(
                            try memo.chunk(.leaderboard(habit)) {
                                guard let card = snapshot.leaderboardCards[habit] else {
                                    preconditionFailure("leaderboardHabits gives habits with a card")
                                }
                                let decorated = HomePage.decorated(
                                    card, now: now, habitTrend: { activity.habitTrend($0) },
                                    moments: activity.moments, leaders: MomentLog.leaders(in: snapshot))
                                return try renderer.chunk(
                                    .leaderboard(decorated), template: "partials/leaderboard-card"
                                ) {
                                    decorated.templateValue
                                }
                            })
                    }
                } else {
                    // A person's row is the same for every browser whose favourites pick the same shared habit.
                    let context = FollowingContext(snapshot: snapshot, settings: settings)
                    for place in places {
                        let user = snapshot.sortedUsers[place]
                        let shared = context.sharedHabits(of: user)
                        composed.append(
                            try memo.chunk(.following(user.id, favorite: shared.favorite)) {
                                var row = context.row(for: user, sharing: shared)
                                row.moment = HomePage.moment(of: user.id, now: now, moments: activity.moments)
                                return try renderer.chunk(.following(row), template: "partials/following-row") {
                                    row.templateValue
                                }
                            })
                    }
                }
            })
    }
}

/// What Home's fragment skeleton keeps its chunks by: within the skeleton's data version and trend key, a habit's
/// leaderboard card, and a followed person's row for the favourite its message names (nil when it names none of them).
private enum HomeChunk: Hashable, Sendable {
    case leaderboard(String)
    case following(String, favorite: String?)
}
