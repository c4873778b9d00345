import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// Every GET page is a function of (snapshot, the browser's settings): its bytes and their ETag are rendered once per
/// `RenderKey` and served from `RenderCache` until the data changes, so a warm `If-None-Match` renders nothing.
extension DashboardApp {
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
            trendKey: activity.trendKey)
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
        var response = recordingVisit(
            hasCurrentCopy(request, of: entry) ? notModified(entry, request) : ok(entry, request), request, context,
            browserID: browser.id)
        response.isReusable = true
        return response
    }
}
