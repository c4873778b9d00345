import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// `GET /habits`: every habit by category, paged.
extension DashboardApp {
    func habits(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let number = try Self.page(request)
        return { [self] view, browser in
            // What every browser's page shares is rendered once; a browser's favourites only choose and order the
            // shared sections' parts (issue 46 point 1).
            let skeleton = try renderCache.skeleton(
                for: sharedKey(HabitsListPage.skeletonDeclaration, page: number, view)
            ) {
                let page = HabitsListPage(snapshot: view.snapshot, settings: .default, page: number)
                guard page.pager != nil else {
                    let count = view.snapshot.sortedHabits.count
                    throw Self.pastLastPage(
                        number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
                }
                return try renderer.skeleton(
                    DashboardPage.habits.template, page.skeletonFields(listPath: DashboardPage.habits.route),
                    frame: PageFrame(
                        title: "Habits", tab: .habits, staleNotice: view.stale,
                        colorsVersion: view.snapshot.referenceVersion),
                    places: ["sections"])
            }
            let page = HabitsListPage(snapshot: view.snapshot, settings: browser.settings.value, page: number)
            let returnTo = page.returnTo(listPath: DashboardPage.habits.route)
            let composed = try skeleton.compose { _, composed in
                for part in page.parts(returnTo: returnTo) {
                    composed.append(try renderer.chunk(part.key, template: part.template) { part.value })
                }
            }
            return composedHTML(request, context, composed, for: browser)
        }
    }
}
