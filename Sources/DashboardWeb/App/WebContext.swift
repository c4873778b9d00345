import DashboardCore
import HTTPServer
import Timing

/// What every handler is built from (issue 45 point 2): the state front, the browser's settings, the renderer and the
/// shared plumbing (page caching, visits, live polls), made once by `DashboardApp` and held by reference.
///
/// A class, not a struct: a page's body captures its handler, and a handler holds only this; copying a struct of a
/// dozen references retained each of them, several times per request (2 % of a warm page's CPU in `perf`, issue 21).
final class WebContext: Sendable {
    /// The dashboard's state: the view a browser is shown, settings, parking, logging, images (DashboardCore's API).
    let state: DashboardState
    /// Templates → responses.
    let renderer: PageRenderer
    /// Per-browser favourites and follows, read from and written for the browser's cookie.
    let settings: BrowserSettings
    /// The CSRF check every POST passes first.
    let originCheck: OriginCheck
    /// Render keys, the render cache and the cached answers every GET page shares.
    let pages: PageCaching
    /// The last-visit cookie's renewal and "since your last visit".
    let visits: VisitRecorder
    /// The live fragments `live.js` polls, parked until they change.
    let live: LiveFragments
    /// `POST /log`s waiting on the upstream at once (the log, then the refresh after it); beyond it, `LogBusy`.
    let logWaits = UpstreamWaitLimit(limit: WebContext.logWaitLimit)

    /// Most `POST /log`s waiting on the upstream at once: a person logs one habit at a time, and each waits at most
    /// the client's 3 s for the log and 3 s for the refresh after it.
    static let logWaitLimit = 16

    /// The context over `state`, with empty caches.
    init(state: DashboardState, renderer: PageRenderer, settings: BrowserSettings, originCheck: OriginCheck) {
        self.state = state
        self.renderer = renderer
        self.settings = settings
        self.originCheck = originCheck
        visits = VisitRecorder(state: state, settings: settings)
        pages = PageCaching(history: state.history, visits: visits)
        live = LiveFragments(state: state, settings: settings, pages: pages)
    }

    /// The state's clock; its wall-clock `date` stamps logged habits and the dates pages show.
    var clock: any TimeSource { state.clock }
    /// Past totals, for Home's "Happening now" and the sparklines (recorded by the state as it refreshes).
    var activity: ActivityHistory { state.history }
    /// Rendered pages and fragments by data version and settings digest.
    var renderCache: RenderCache { pages.renderCache }
    /// The parked places' fair share by client address (issue 23).
    var parkedPolls: ParkedPolls { live.parkedPolls }

    /// `body`'s answer when the view and the browser's settings are in memory; nil when either must be awaited.
    func answerNow(_ request: Request, live: Bool, _ body: PageBody) throws -> Response? {
        guard let view = state.viewAtOnce(live: live), let browser = settings.browserAtOnce(of: request) else {
            return nil
        }
        return try body(view, browser)
    }

    /// The app's own caches for `/metrics`: renderings, cards, parked polls, verified browser and visit cookies.
    var cacheUses: [CacheUse] {
        [
            CacheUse(name: "render", bytes: renderCache.bytes, budget: renderCache.budget),
            CacheUse(name: "cards", bytes: renderer.cards.bytes, budget: renderer.cards.budget),
            CacheUse(
                name: "parked_polls", bytes: parkedPolls.counts.held * ParkedPolls.bytesPerPoll,
                budget: parkedPolls.capacity * ParkedPolls.bytesPerPoll),
            CacheUse(
                name: "verified_cookies", bytes: settings.verifiedCookies.bytes,
                budget: settings.verifiedCookies.budgetBytes),
            CacheUse(
                name: "verified_visits", bytes: visits.verifiedVisits.bytes, budget: visits.verifiedVisits.budgetBytes),
        ]
    }
}
