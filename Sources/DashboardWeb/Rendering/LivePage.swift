import DashboardCore

/// A page that updates itself through a fragment `live.js` polls (SPEC §6): its template and route, and its
/// fragment's template and route, each named once.
///
/// A fragment lives at its page's own path under `/fragments` (`/habits/Yoga` → `/fragments/habits/Yoga`), so
/// `live.js` needs no table of its own; Home, whose path `/` has no segment to put there, uses `/fragments/home`.
struct LivePage: Sendable {
    /// The page itself.
    let page: DashboardPage
    /// The pattern the router matches for the fragment.
    let fragmentRoute: String
    /// Whether the fragment's path is the page's path under `/fragments` (all but Home).
    private let mirrorsPath: Bool

    /// `/`: the introduction, leaderboard and followed people.
    static let home = LivePage(
        page: DashboardPage(template: "home", route: "/"), fragmentRoute: prefix + "/home", mirrorsPath: false)
    /// `/habits/<name>`: one habit's counts.
    static let habit = LivePage(item: "habit", route: Links.habitRoute.pattern)
    /// `/people/<id>`: one person's counts.
    static let person = LivePage(item: "person", route: Links.personRoute.pattern)

    /// The path prefix of every fragment.
    private static let prefix = "/fragments"

    /// Where every page's news region polls the rank changes that concern the browser (issue 22 point 3).
    static let newsRoute = prefix + "/news"

    private init(page: DashboardPage, fragmentRoute: String, mirrorsPath: Bool) {
        self.page = page
        self.fragmentRoute = fragmentRoute
        self.mirrorsPath = mirrorsPath
    }

    /// The page of one item, whose fragment mirrors its route under `/fragments`.
    private init(item template: String, route: String) {
        self.init(
            page: DashboardPage(template: template, route: route), fragmentRoute: Self.prefix + route, mirrorsPath: true
        )
    }

    /// The page's template.
    var template: String { page.template }
    /// The page's route.
    var route: String { page.route }
    /// The fragment's template (`fragments/habit`).
    var fragmentTemplate: String { "fragments/" + page.template }

    /// Where `live.js` polls the fragment of this page shown at `path` (a link from `Links`; Home's is fixed).
    func liveSource(path: String) -> String {
        mirrorsPath ? Self.prefix + path : fragmentRoute
    }

    /// The render-cache route of the whole page (`DashboardPage.key`).
    func pageKey(item: String? = nil, query: String = "") -> String { page.key(item: item, query: query) }

    /// The render-cache route of the fragment: `fragment:<template>[:<item>]`.
    func fragmentKey(item: String? = nil) -> String { "fragment:" + DashboardPage.route(page.template, item, "") }
}
