import DashboardCore
import HTTPCore
import HTTPServer

/// The stylesheet of the data's colours.
struct ColorsHandler: Sendable {
    /// The state and the render cache the sheet comes from.
    let web: WebContext

    /// `GET /colors.css[?v=<version>]`: a class per colour in the reference data (see `ColorStyle+CSS.swift`),
    /// made once per version in the render cache and gzipped like pages. Pages link it with their data's version
    /// (issue 14): that URL's bytes never change, so browsers keep it for a year; any other URL (the plain one, an
    /// old version) gets the current sheet and revalidates. With no data at all it still answers, with the fixed
    /// colours, so pages keep their favourites yellow.
    func get(_ request: Request, _ context: RequestContext) async throws -> Response {
        var snapshot: Snapshot?
        do {
            snapshot = try await web.state.view(activity: context.activity).snapshot
        } catch {
            context.logger.notice("colours without upstream data", ["error": String(describing: error)])
        }
        let inputs = snapshot?.inputs
        let version = snapshot?.referenceVersion
        let key = RenderKey(route: "colors.css", content: version ?? 0, personal: .none, stale: nil)
        let entry = web.renderCache.entry(for: key) {
            Array(
                ColorStylesheet.css(
                    users: Array(inputs?.users.values ?? [:].values), categories: inputs?.categories ?? []
                ).utf8)
        }
        var response =
            web.pages.hasCurrentCopy(request, of: entry)
            ? web.pages.notModified(entry, request)
            : web.pages.ok(entry, request, contentType: "text/css; charset=utf-8")
        let pinned = version != nil && request.query["v"] == version.map { String($0, radix: 16) }
        // Revalidate any other URL: a new user's colour must appear as soon as the user does.
        response.headers.replaceOrAdd(
            name: "Cache-Control", value: pinned ? StaticFiles.immutableCacheControl : "no-cache")
        return response
    }
}
