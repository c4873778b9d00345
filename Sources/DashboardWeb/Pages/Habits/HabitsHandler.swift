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

    /// Reads the page number; the body composes that page of the list for the browser.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let number = try RequestParameters.page(request)
        return { [web] view, browser in
            let skeleton = try skeleton(page: number, view)
            guard let layout = skeleton.layout(as: HabitsListLayout.self) else {
                preconditionFailure("the Habits skeleton is made with its layout")
            }
            let renderer = web.renderer
            let returnTo = layout.returnTo
            let composed = try skeleton.compose { _, composed in
                for part in layout.parts(favorites: browser.settings.value.favoriteHabits) {
                    switch part {
                    case .start(let category, let index):
                        composed.append(
                            try layout.start(category: category, index: index) { section, id in
                                try renderer.chunk(HabitsListPage.Part.start(section, id: id))
                            })
                    case .row(let place, let favorite):
                        composed.append(
                            try layout.row(place, favorite: favorite) { row in
                                try renderer.chunk(HabitsListPage.Part.row(row, returnTo: returnTo))
                            })
                    case .end:
                        composed.append(try renderer.chunk(HabitsListPage.Part.end))
                    }
                }
            }
            return web.pages.composedHTML(request, context, composed, for: browser)
        }
    }

    /// What every browser's page `number` shares, rendered once per data version (issue 46 point 1): the frame and
    /// pager, and the layout a browser's favourites choose and order the sections' parts from.
    private func skeleton(page number: Int, _ view: SnapshotView) throws -> Skeleton {
        let shared = web.pages.sharedKey(HabitsListPage.skeletonDeclaration, page: number, view)
        return try web.pages.renderCache.skeleton(for: shared) {
            let page = HabitsListPage(snapshot: view.snapshot, settings: .default, page: number)
            guard page.pager != nil else {
                let count = view.snapshot.sortedHabits.count
                throw RequestParameters.pastLastPage(
                    number, pages: Pager.pageCount(count, size: Pager.habitsPerPage), of: "habits")
            }
            let listPath = DashboardPage.habits.route
            return try web.renderer.skeleton(
                DashboardPage.habits.template, page.skeletonFields(listPath: listPath),
                frame: PageFrame(
                    title: "Habits", tab: .habits, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion),
                places: ["sections"],
                layout: HabitsListLayout(
                    snapshot: view.snapshot, page: number, returnTo: page.returnTo(listPath: listPath)))
        }
    }
}
