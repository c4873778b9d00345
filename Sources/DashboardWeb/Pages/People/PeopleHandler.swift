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
        let frame = PageFrame(
            title: "People", tab: .people, staleNotice: view.stale, colorsVersion: view.snapshot.referenceVersion)
        func pastLastPage(_ page: PeoplePage) -> HTTPError {
            RequestParameters.pastLastPage(
                number, pages: Pager.pageCount(page.matchCount, size: Pager.peoplePerPage), of: "people")
        }
        guard !followedOnly else {
            // Which cards, how many pages and the empty message all depend on the follows: rendered per follows.
            // Activity and leading read the statistics, so those orders change with the whole version.
            let key = web.pages.key(
                PeoplePage.declaration(sort: sort), query: selection, page: number, view, browser.settings)
            return try web.pages.cachedHTML(request, context, key: key, for: browser) {
                let page = PeoplePage(
                    snapshot: view.snapshot, settings: browser.settings.value, followedOnly: true, query: search,
                    sort: sort, page: number)
                guard page.pager != nil else { throw pastLastPage(page) }
                return try web.renderer.pageBytes(
                    .people, page.templateFields(listPath: listPath, renderer: web.renderer), frame: frame)
            }
        }
        // Everyone's page shows the same cards; the follows choose each card's variant and the count in the summary
        // (issue 46 point 1).
        let shared = web.pages.sharedKey(
            PeoplePage.skeletonDeclaration(sort: sort), query: selection, page: number, view)
        let skeleton = try web.pages.renderCache.skeleton(for: shared) {
            let page = PeoplePage(snapshot: view.snapshot, settings: .default, query: search, sort: sort, page: number)
            guard page.pager != nil else { throw pastLastPage(page) }
            return try web.renderer.skeleton(
                DashboardPage.people.template, page.skeletonFields(listPath: listPath), frame: frame,
                places: ["youFollow", "cards"],
                layout: try page.choices(returnTo: page.returnTo(listPath: listPath), renderer: web.renderer))
        }
        let follows = browser.settings.value.followedUserIDs
        let choices = skeleton.layout(as: ChoiceTable.self)
        let followed = choices?.positions(of: follows) ?? []
        let composed = skeleton.compose { place, composed in
            guard let choices else { return }
            switch place {
            case "youFollow":
                composed.append(literal: PeoplePage.youFollow(PeoplePage.followedCount(follows, in: view.snapshot)))
            default:
                for position in choices.plain.indices {
                    composed.append(followed.contains(position) ? choices.chosen[position] : choices.plain[position])
                }
            }
        }
        return web.pages.composedHTML(request, context, composed, for: browser)
    }
}
