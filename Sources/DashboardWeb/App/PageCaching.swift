import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// Every GET page is a function of (snapshot, the browser's settings): its bytes and their ETag are rendered once per
/// `RenderKey` and served from `RenderCache` until the data changes, so a warm `If-None-Match` renders nothing.
/// This holds the cache and what its keys are made from, and gives the cached answers every page shares.
struct PageCaching: Sendable {
    /// Rendered pages and fragments by data version and settings digest.
    let renderCache = RenderCache(budget: RenderCache.defaultBudget)
    /// The personal parts of render keys, once per settings content.
    let personalDigests = PersonalDigests()
    /// Past totals: their latest slot is part of the keys of pages with sparklines.
    let history: ActivityHistory
    /// Renews the last-visit cookie on every page answered.
    let visits: VisitRecorder

    // MARK: - Keys and answers

    /// Whether the request asks for the page without live updates (`?live=0`, the no-JavaScript pause link).
    static func isPaused(_ request: Request) -> Bool { request.query["live"] == "0" }

    /// The render key `declaration` gives for `view` and the browser's settings: the one place keys are made.
    func key(
        _ declaration: PageDeclaration, item: String? = nil, query: String = "", page: Int = 1, _ view: SnapshotView,
        _ browser: Versioned<Settings>
    ) -> RenderKey {
        declaration.key(
            item: item, query: query, listPage: page, view: view, settings: browser, digests: personalDigests,
            trendKey: history.trendKey)
    }

    /// The render key of what every browser's page of `declaration` shares (a composed page's skeleton).
    func sharedKey(
        _ declaration: PageDeclaration, item: String? = nil, query: String = "", page: Int = 1, _ view: SnapshotView
    ) -> RenderKey {
        declaration.sharedKey(item: item, query: query, listPage: page, view: view, trendKey: history.trendKey)
    }

    /// The variant of a live page in its key: the range shown and whether it is paused.
    static func liveQuery(range: HistoryRange = .hour, paused: Bool) -> String {
        PageDeclaration.joined(range.query, paused ? "live=0" : "")
    }

    /// The cached (or freshly rendered) bytes of `key` for `browser`: 304 when `If-None-Match` names their ETag,
    /// else 200. Reusable: given at once, the server gives it again to the same request within `answerEpoch`.
    func cachedHTML(
        _ request: Request, _ context: RequestContext, key: RenderKey, for browser: LoadedBrowser,
        render: () throws -> [UInt8]
    ) throws -> Response {
        let entry = try renderCache.entry(for: key, render: render)
        var response = visits.recording(
            hasCurrentCopy(request, of: entry) ? notModified(entry, request) : ok(entry, request), request, context,
            browserID: browser.id)
        response.isReusable = true
        return response
    }

    /// The answer with `page`, composed for `browser` (issue 46 point 1): 304 when `If-None-Match` names it, else 200.
    func composedHTML(
        _ request: Request, _ context: RequestContext, _ page: ComposedPage, for browser: LoadedBrowser
    ) -> Response {
        var response = visits.recording(page.response(to: request), request, context, browserID: browser.id)
        response.isReusable = true
        return response
    }
}
