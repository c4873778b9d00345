import DashboardCore
import HTTPServer

/// A page's answer once its request is checked: a function of the snapshot view and the browser's settings.
typealias PageBody = @Sendable (SnapshotView, LoadedBrowser) throws -> Response

/// The handler of a GET page: it checks the request (its 400s and 404s come before any data is read) and gives the
/// page's body.
protocol PageHandler: Sendable {
    /// Whether the page is live (its view keeps the snapshot refreshing).
    static var isLive: Bool { get }
    /// The context whose view and settings the page reads.
    var web: WebContext { get }
    /// Checks `request` and gives the page's body.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody
}

/// A GET page: `Handler.prepare` checks the request and gives the page's body, which gets the snapshot view and the
/// browser's settings. When both are in memory (a warm page) the answer is given now, on the event loop (issue 21);
/// otherwise the body is carried into the work that awaits them. Generic, so the warm path calls the handler directly.
struct PageResponder<Handler: PageHandler>: HTTPResponder {
    /// The page's handler, built once with the route table.
    let handler: Handler

    func respond(to request: Request, context: RequestContext) throws -> Answer {
        let body = try handler.prepare(request, context)
        if let response = try handler.web.answerNow(request, live: Handler.isLive, body) { return .now(response) }
        // Built only when the page must wait: a warm page allocates no work.
        return .later { [web = handler.web] in
            let view = try await web.state.view(live: Handler.isLive, activity: context.activity)
            let browser = try await web.settings.browser(of: request)
            return try body(view, browser)
        }
    }
}
