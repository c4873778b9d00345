import DashboardCore
import Foundation
import HTTPServer
import Timing

/// The dashboard's web app: every route of SPEC §5 and §6 (`Routes.swift`), wired to the state (DashboardCore's
/// `DashboardState`), the templates and the per-browser settings.
///
/// Handlers live with their pages (`Pages/<Page>/DashboardApp+<Page>.swift`: the GET page, its live fragment, its
/// form) and in `DashboardApp+Assets.swift` (images, colours, metrics). They are thin: read the state, build the view
/// model, render.
///
/// A class, not a struct: every handler closure and responder captures the app, and copying a struct of sixteen
/// references retained each of them, several times per request (2 % of a warm page's CPU in `perf`, issue 21).
public final class DashboardApp: Sendable {
    /// The dashboard's state: the view a browser is shown, settings, parking, logging, images (DashboardCore's API).
    public let state: DashboardState
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
    /// Per-browser favourites and follows, read from and written for the browser's cookie.
    public let settings: BrowserSettings
    /// The CSRF check every POST passes first.
    public let originCheck: OriginCheck
    /// Serves `Public/` under `/static/`; nil leaves static files out (handler tests).
    public let staticFiles: (any HTTPResponder)?
    /// The text of `/metrics` (the cache's upstream counters), given the app's own caches' use, served by
    /// `metricsResponder` only; nil answers 404 there.
    public let metrics: (@Sendable ([CacheUse]) async -> String)?
    /// Lines `/healthz` adds after "ok" (the database's state with `--database`).
    public let health: (@Sendable () -> String)?
    /// The state's clock; its wall-clock `date` stamps logged habits and the dates pages show.
    var clock: any TimeSource { state.clock }
    /// Past totals, for Home's "Happening now" and the sparklines (recorded by the state as it refreshes).
    var activity: ActivityHistory { state.history }

    /// Most `POST /log`s waiting on the upstream at once: a person logs one habit at a time, and each waits at most
    /// the client's 3 s for the log and 3 s for the refresh after it.
    static let logWaitLimit = 16

    /// Creates the app over `state`.
    public init(
        state: DashboardState, renderer: PageRenderer, settings: BrowserSettings,
        originCheck: OriginCheck = OriginCheck(), staticFiles: (any HTTPResponder)? = nil,
        metrics: (@Sendable ([CacheUse]) async -> String)? = nil, health: (@Sendable () -> String)? = nil
    ) {
        self.state = state
        self.health = health
        self.renderCache = RenderCache(budget: RenderCache.defaultBudget)
        self.parkedPolls = ParkedPolls(state.parking)
        self.renderer = renderer
        self.settings = settings
        self.originCheck = originCheck
        self.staticFiles = staticFiles
        self.metrics = metrics
    }

    /// The whole app as the server runs it: routes, HTML error pages in the layout, security headers, and the
    /// public address's rules (Host, HSTS, the path prefix on redirects).
    public var responder: some HTTPResponder {
        SiteGuard(policy: originCheck.policy, next: SecurityHeaders(ErrorAnswers(next: router, renderer: renderer)))
    }
}
