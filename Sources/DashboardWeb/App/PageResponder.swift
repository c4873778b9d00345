import DashboardCore
import HTTPServer

/// A page's answer once its request is checked: a function of the snapshot view and the browser's settings.
typealias PageBody = @Sendable (SnapshotView, LoadedBrowser) throws -> Response

/// A GET page: `prepare` checks the request (its 400s and 404s come before any data is read) and gives the page's
/// body, which gets the snapshot view and the browser's settings. When both are in memory (a warm page) the answer is
/// given now, on the event loop (issue 21); otherwise the body is carried into the work that awaits them.
struct PageResponder: HTTPResponder {
    /// The app whose view and settings the page reads.
    let app: DashboardApp
    /// Whether the page is live (its view keeps the snapshot refreshing).
    let live: Bool
    /// Checks the request and gives the page's body.
    let prepare: @Sendable (DashboardApp, Request, RequestContext) throws -> PageBody

    func respond(to request: Request, context: RequestContext) throws -> Answer {
        let body = try prepare(app, request, context)
        if let response = try app.answerNow(request, live: live, body) { return .now(response) }
        // Built only when the page must wait: a warm page allocates no work.
        return .later { [app, live] in
            let view = try await app.state.view(live: live, activity: context.activity)
            let browser = try await app.settings.browser(of: request)
            return try body(view, browser)
        }
    }
}

extension DashboardApp {
    /// `body`'s answer when the view and the browser's settings are in memory; nil when either must be awaited.
    func answerNow(_ request: Request, live: Bool, _ body: PageBody) throws -> Response? {
        guard let view = state.viewAtOnce(live: live), let browser = settings.browserAtOnce(of: request) else {
            return nil
        }
        return try body(view, browser)
    }
}
