import DashboardCore
import Foundation
import HTTPServer
import TemplateKit

/// `GET /people`: everybody, sorted, searched and paged.
struct PeopleHandler: PageHandler {
    /// Not live: the list is shown as it was when asked for.
    static let isLive = false
    /// The state, renderer and page caching the page is built from.
    let web: WebContext

    /// Reads the filter, search and sort; the body renders the page of people they select.
    func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = PeoplePage.normalized(query["q"] ?? "")
        guard let sort = PeopleSort.parse(query["sort"]) else {
            throw HTTPError(.badRequest, "Sort people by name, activity or leading.")
        }
        return { [self] view, browser in
            try people(view, browser, followedOnly: followedOnly, search: search, sort: sort, request, context)
        }
    }

    private func people(
        _ view: SnapshotView, _ browser: LoadedBrowser, followedOnly: Bool, search: String, sort: PeopleSort,
        _ request: Request, _ context: RequestContext
    ) throws -> Response {
        var parameters: [String] = []
        if sort != .name { parameters.append("sort=" + sort.rawValue) }
        if followedOnly { parameters.append("followed=1") }
        if !search.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(search)) }
        let selection = parameters.joined(separator: "&")
        let listPath = DashboardPage.people.route + (selection.isEmpty ? "" : "?" + selection)
        let number = try RequestParameters.page(request)
        // Activity and leading read the statistics, so those orders change with the whole version.
        let key = web.pages.key(
            PeoplePage.declaration(sort: sort), query: selection, page: number, view, browser.settings)
        return try web.pages.cachedHTML(request, context, key: key, for: browser) {
            let page = PeoplePage(
                snapshot: view.snapshot, settings: browser.settings.value, followedOnly: followedOnly, query: search,
                sort: sort,
                page: number)
            guard page.pager != nil else {
                let pages = Pager.pageCount(page.matchCount, size: Pager.peoplePerPage)
                throw RequestParameters.pastLastPage(number, pages: pages, of: "people")
            }
            return try web.renderer.pageBytes(
                .people, page.templateFields(listPath: listPath, renderer: web.renderer),
                frame: PageFrame(
                    title: "People", tab: .people, staleNotice: view.stale,
                    colorsVersion: view.snapshot.referenceVersion))
        }
    }
}
