import DashboardCore
import HTTPServer

/// A page of the dashboard, naming once what its handler, the route table and the render cache share: its template
/// and its route. A live page is a `LivePage`, which adds its fragment.
struct DashboardPage: Sendable {
    /// The template under `Templates/` without ".html", also the page's name in render-cache keys.
    let template: String
    /// The pattern the router matches.
    let route: String

    /// `/habits`: every habit, favourites first.
    static let habits = DashboardPage(template: "habits", route: "/" + Links.habitRoute.collection)
    /// `/people`: everyone, searchable and sortable.
    static let people = DashboardPage(template: "people", route: "/" + Links.personRoute.collection)
    /// `/log`: the log-a-habit buttons.
    static let log = DashboardPage(template: "log", route: "/log")

    /// The render-cache route of the page: `page:<template>[:<item>][?<query>]`, telling apart the item (a habit's
    /// name, a person's id) and the variant (`query` without its `?`). The item is percent-encoded, so a name with a
    /// `?` in it cannot pass for another item's variant.
    func key(item: String? = nil, query: String = "") -> String { "page:" + Self.route(template, item, query) }

    /// `<name>[:<item>][?<query>]` with the item percent-encoded.
    static func route(_ name: String, _ item: String?, _ query: String) -> String {
        name + (item.map { ":" + PercentEncoding.encodePathSegment($0) } ?? "") + (query.isEmpty ? "" : "?" + query)
    }
}
