import DashboardCore
import Foundation
import HTTPServer

/// The dashboard's web app as the server runs it: the route table (`Routes.swift`) over one `WebContext`, with the
/// middleware every answer passes (Hummingbird's application, in miniature).
///
/// Handlers live with their pages (`Pages/<Page>/<Name>Handler.swift`: the GET page, its live fragment, its form) and
/// under `Assets/` (images, colours, metrics): each a type of its own, built once from the context. They are thin:
/// read the state, build the view model, render.
public final class DashboardApp: Sendable {
    /// The state, settings, renderer and shared plumbing every handler is built from.
    let web: WebContext
    /// Serves `Public/` under `/static/`; nil leaves static files out (handler tests).
    public let staticFiles: (any HTTPResponder)?
    /// The text of `/metrics` (the cache's upstream counters), given the app's own caches' use, served by
    /// `metricsResponder` only; nil answers 404 there.
    public let metrics: (@Sendable ([CacheUse]) async -> String)?
    /// Lines `/healthz` adds after "ok" (the database's state with `--database`).
    public let health: (@Sendable () -> String)?

    /// Creates the app over `state`.
    public init(
        state: DashboardState, renderer: PageRenderer, settings: BrowserSettings,
        originCheck: OriginCheck = OriginCheck(), staticFiles: (any HTTPResponder)? = nil,
        metrics: (@Sendable ([CacheUse]) async -> String)? = nil, health: (@Sendable () -> String)? = nil
    ) {
        self.web = WebContext(state: state, renderer: renderer, settings: settings, originCheck: originCheck)
        self.staticFiles = staticFiles
        self.metrics = metrics
        self.health = health
    }

    /// The dashboard's state (DashboardCore's API).
    public var state: DashboardState { web.state }
    /// Templates → responses.
    public var renderer: PageRenderer { web.renderer }
    /// Per-browser favourites and follows.
    public var settings: BrowserSettings { web.settings }
    /// The CSRF check every POST passes first, and the public address's rules.
    public var originCheck: OriginCheck { web.originCheck }

    /// The epoch under which the server gives a page's answer again to the very same request (`AnswerEpoch+Dashboard`).
    public var answerEpoch: AnswerEpoch { AnswerEpoch(state: web.state) }

    /// The whole app as the server runs it: routes, HTML error pages in the layout, security headers, and the
    /// public address's rules (Host, HSTS, the path prefix on redirects).
    public var responder: some HTTPResponder {
        SiteGuard(policy: originCheck.policy, next: SecurityHeaders(ErrorAnswers(next: router, renderer: renderer)))
    }
}
