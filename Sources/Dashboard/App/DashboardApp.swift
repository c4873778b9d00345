import Foundation
import HTTPServer
import HabitsAPI
import Timing

/// The dashboard: every route of SPEC §5 and §6, wired to the data, the templates and the per-browser settings.
///
/// Handlers live in `DashboardApp+Pages.swift` (GET pages and live fragments), `DashboardApp+Forms.swift` (the
/// POSTs) and `DashboardApp+Assets.swift` (images, colours, health, metrics). They are thin: fetch, build the view
/// model, render.
///
/// A class, not a struct: every handler closure and responder captures the app, and copying a struct of sixteen
/// references retained each of them, several times per request (2 % of a warm page's CPU in `perf`, issue 21).
public final class DashboardApp: Sendable {
    /// The Habits API (behind a `RequestCoalescer` in production): where habits are logged and snapshots come from.
    public let upstream: any HabitsAPI
    /// Profile images: the upstream's, with the copies on disk when it cannot give them.
    public let images: ImageCache
    /// The current snapshot of the upstream data, refreshed off the request path; every page reads it.
    public let snapshots: SnapshotStore
    /// Rendered pages and fragments by data version and settings digest.
    let renderCache: RenderCache
    /// The parked places' fair share by client address (issue 23).
    let parkedPolls: ParkedPolls
    /// `POST /log`s waiting on the upstream at once (the log, then the refresh after it); beyond it, `LogBusy`.
    let logWaits = UpstreamWaitLimit(limit: DashboardApp.logWaitLimit)
    /// The personal parts of render keys, once per settings content.
    let personalDigests = PersonalDigests()
    /// The renewed last-visit cookie, once per second.
    let visitCookies = VisitCookies()
    /// Last-visit cookie values already verified, so a page's two reads of it (renewal, "since your last visit")
    /// skip the HMAC.
    let verifiedVisits = VerifiedCookies<Int>()
    /// Templates → responses.
    public let renderer: PageRenderer
    /// Per-browser favourites and follows.
    public let settings: BrowserSettings
    /// The CSRF check every POST passes first.
    public let originCheck: OriginCheck
    /// Serves `Public/` under `/static/`; nil leaves static files out (handler tests).
    public let staticFiles: (any HTTPResponder)?
    /// The text of `/metrics` (the cache's upstream counters), given the app's own caches' use, served by
    /// `metricsResponder` only; nil answers 404 there.
    public let metrics: (@Sendable ([CacheUse]) async -> String)?
    /// The clock; its wall-clock `date` stamps logged habits (sent upstream and shown to people, so never monotonic).
    public let clock: any TimeSource
    /// Lines `/healthz` adds after "ok" (the database's state with `--database`).
    public let health: (@Sendable () -> String)?
    /// Past totals, for Home's "Happening now" and the sparklines (recorded by the store as it refreshes).
    var activity: ActivityHistory { snapshots.history }

    /// Most `POST /log`s waiting on the upstream at once: a person logs one habit at a time, and each waits at most
    /// the client's 3 s for the log and 3 s for the refresh after it.
    static let logWaitLimit = 16

    /// Creates the app.
    public init(
        upstream: any HabitsAPI, images: ImageCache? = nil, renderer: PageRenderer, settings: BrowserSettings,
        originCheck: OriginCheck = OriginCheck(), staticFiles: (any HTTPResponder)? = nil,
        metrics: (@Sendable ([CacheUse]) async -> String)? = nil, clock: any TimeSource = SystemTimeSource(),
        snapshots: SnapshotStore? = nil, health: (@Sendable () -> String)? = nil,
        parking: ParkingLimits = ParkingLimits()
    ) {
        self.health = health
        self.upstream = upstream
        // The defaults run on the app's clock too: one clock injected everywhere (a test's manual clock included).
        self.images = images ?? ImageCache(upstream: upstream, disk: nil, clock: clock)
        let snapshots = snapshots ?? SnapshotStore(source: upstream, clock: clock)
        self.snapshots = snapshots
        self.renderCache = RenderCache(budget: RenderCache.defaultBudget)
        self.parkedPolls = ParkedPolls(parking)
        self.renderer = renderer
        self.settings = settings
        self.originCheck = originCheck
        self.staticFiles = staticFiles
        self.metrics = metrics
        self.clock = clock
    }

    /// The route table.
    public var router: Router {
        var router = Router()
        router.get(
            LivePage.home.route, atOnce: { [self] in try homeAtOnce($0, $1) }, { [self] in try await home($0, $1) })
        router.add(.get, DashboardPage.habits.route, PageResponder(app: self, live: false) { try $0.habits($1, $2) })
        router.add(
            .get, LivePage.habit.route,
            PageResponder(app: self, live: true) { try $0.itemPage(HabitDetailPage.self, $1, $2) })
        router.add(.get, DashboardPage.people.route, PageResponder(app: self, live: false) { try $0.people($1, $2) })
        router.add(
            .get, LivePage.person.route,
            PageResponder(app: self, live: true) { try $0.itemPage(PersonDetailPage.self, $1, $2) })
        router.add(.get, DashboardPage.log.route, PageResponder(app: self, live: false) { try $0.logPage($1, $2) })

        router.get(LivePage.home.fragmentRoute) { [self] in try await homeFragment($0, $1) }
        router.get(LivePage.habit.fragmentRoute) { [self] in try await itemFragment(HabitDetailPage.self, $0, $1) }
        router.get(LivePage.person.fragmentRoute) { [self] in try await itemFragment(PersonDetailPage.self, $0, $1) }
        router.get(LivePage.newsRoute) { [self] in try await newsFragment($0, $1) }

        router.post(Links.habitFavoriteRoute.pattern) { [self] in try await favorite($0, $1) }
        router.post(Links.personFollowRoute.pattern) { [self] in try await follow($0, $1) }
        router.post(DashboardPage.log.route) { [self] in try await logHabit($0, $1) }

        router.get(Links.imageRoute.pattern) { [self] in try await image($0, $1) }
        router.get("/colors.css") { [self] in try await colors($0, $1) }
        // Always 200 while the process serves: pages work without the database, so a balancer must keep sending.
        router.get("/healthz") { [health, snapshots] _, _ in
            .text("ok\n" + (health.map { $0() + "\n" } ?? "") + (snapshots.clusterHealth ?? ""))
        }
        if let staticFiles {
            router.add(.get, "/static/*", staticFiles)
        }
        router.fallback(ClosureResponder { _, _ in throw HTTPError(.notFound, "There is no page at this address.") })
        return router
    }

    /// The metrics listener's whole app (`--metrics-port`, issue 48): `/metrics` and nothing else, and only to the
    /// names of `policy` (the listener's own address and loopback), so a DNS-rebinding page cannot read it either.
    public func metricsResponder(policy: SitePolicy) -> some HTTPResponder {
        var router = Router()
        router.get("/metrics") { [self] in try await metricsPage($0, $1) }
        router.fallback(ClosureResponder { _, _ in throw HTTPError(.notFound) })
        return SiteGuard(policy: policy, next: SecurityHeaders(router))
    }

    /// The whole app as the server runs it: routes, HTML error pages in the layout, security headers, and the
    /// public address's rules (Host, HSTS, the path prefix on redirects).
    public var responder: some HTTPResponder {
        SiteGuard(policy: originCheck.policy, next: SecurityHeaders(ErrorAnswers(next: router, renderer: renderer)))
    }
}
