import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// `GET /habits`: every habit by category, paged.
extension DashboardApp {
    func habits(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let number = try Self.page(request)
        return { [self] view, browser in
            try cachedHTML(
                request, context, key: key(HabitsListPage.declaration, page: number, view, browser.settings),
                for: browser
            ) {
                let page = HabitsListPage(snapshot: view.snapshot, settings: browser.settings.value, page: number)
                guard page.pager != nil else {
                    let count = view.snapshot.sortedHabits.count
                    throw Self.pastLastPage(
                        number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
                }
                return try renderer.pageBytes(
                    .habits, page.templateFields(listPath: DashboardPage.habits.route),
                    frame: PageFrame(
                        title: "Habits", tab: .habits, staleNotice: view.stale,
                        colorsVersion: view.snapshot.referenceVersion))
            }
        }
    }
}
