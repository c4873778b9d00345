import DashboardCore
import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

/// `GET /log`: a button per habit, with the confirmation or failure of the log just made.
struct LogPageHandler: PageHandler {
    /// Not live: the buttons are shown as they were when asked for.
    static let isLive = false
    /// The state, renderer and page caching the page is built from.
    let web: WebContext

    /// Checks nothing before the data: the body reads the query against the habits the snapshot knows.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
        { [self] view, browser in try page(request, context, view, browser) }
    }

    private func page(
        _ request: Request, _ context: RequestContext, _ view: SnapshotView, _ browser: LoadedBrowser
    ) throws -> Response {
        let query = request.query
        let habits = view.snapshot.inputs.habits
        // Only a habit that exists is confirmed, so a crafted link cannot make the page claim anything else.
        let logged = query["logged"].flatMap { habits[$0] == nil ? nil : $0 }
        // Your count before the log, for "You passed …" (issue 22); the page checks it against the data.
        let previous = logged == nil ? nil : query["from"].flatMap { Int($0) }
        let failure = query["error"].flatMap {
            LogFailure(code: $0, habitName: query["habit"], habits: habits)?.message
        }
        var variant: [String] = []
        if let logged { variant.append("logged=" + PercentEncoding.encodeQueryComponent(logged)) }
        if let previous { variant.append("from=\(previous)") }
        if let failure { variant.append("failure=" + PercentEncoding.encodeQueryComponent(failure)) }
        let number = try RequestParameters.page(request)
        // The buttons show your counts, so the page changes with the statistics too.
        let key = web.pages.key(
            LogHabitPage.declaration, query: variant.joined(separator: "&"), page: number, view, browser.settings)
        return try web.pages.cachedHTML(request, context, key: key, for: browser) {
            let page = LogHabitPage(
                snapshot: view.snapshot, settings: browser.settings.value, loggedHabitName: logged,
                previousCount: previous, page: number)
            guard page.pager != nil else {
                let count = view.snapshot.sortedHabits.count
                throw RequestParameters.pastLastPage(
                    number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
            }
            return try web.renderer.pageBytes(
                .log, page.templateFields(failure: failure),
                frame: PageFrame(
                    title: "Log Habit", tab: .log, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }
}
