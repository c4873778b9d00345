import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// `GET /habits`: every habit by category, paged.
struct HabitsHandler: PageHandler {
    /// Not live: the list is shown as it was when asked for.
    static let isLive = false
    /// The state, renderer and page caching the page is built from.
    let web: WebContext

    /// Reads the page number; the body renders that page of the list.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let number = try RequestParameters.page(request)
        return { [web] view, browser in
            try web.pages.cachedHTML(
                request, context, key: web.pages.key(HabitsListPage.declaration, page: number, view, browser.settings),
                for: browser
            ) {
                let page = HabitsListPage(snapshot: view.snapshot, settings: browser.settings.value, page: number)
                guard page.pager != nil else {
                    let count = view.snapshot.sortedHabits.count
                    throw RequestParameters.pastLastPage(
                        number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
                }
                return try web.renderer.pageBytes(
                    .habits, page.templateFields(listPath: DashboardPage.habits.route),
                    frame: PageFrame(
                        title: "Habits", tab: .habits, staleNotice: view.stale,
                        colorsVersion: view.snapshot.referenceVersion))
            }
        }
    }
}
