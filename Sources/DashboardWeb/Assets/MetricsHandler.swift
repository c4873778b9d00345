import DashboardCore
import HTTPServer

/// The metrics listener's one page (`--metrics-port`, issue 48).
struct MetricsHandler: Sendable {
    /// The app's own caches, whose use the text adds.
    let web: WebContext
    /// The text of `/metrics`, given the app's caches' use; nil answers 404.
    let metrics: (@Sendable ([CacheUse]) async -> String)?

    /// `GET /metrics`: plain-text counters (upstream calls, cache hits), when the app was given a source.
    func get(_ request: Request, _ context: RequestContext) async throws -> Response {
        guard let metrics else { throw HTTPError(.notFound) }
        var response = Response.text(await metrics(web.cacheUses))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
