import DashboardCore
import HTTPServer

/// What a request's path, query and form say, read the same way by every handler: each bad value a 400 (or 404) that
/// says what was expected and changes nothing.
enum RequestParameters {
    /// The name or id `route`'s `:key` segment carries. An empty segment with a `key` query parameter is how `Links`
    /// spells the names `.` and `..`, which browsers would otherwise remove from the path.
    static func route(_ route: ItemRoute, _ request: Request, _ context: RequestContext) throws -> String {
        let key = route.parameter
        let segment = try context.parameters.require(key)
        if segment.isEmpty, let value = request.query[key] { return value }
        return segment
    }

    /// The state a Favorite or Follow form asks for: its `field` is `true` or `false`. Anything else, a missing
    /// field or an empty body included, is a 400 that changes nothing (issue 47 point 4): the dashboard's own forms
    /// always say which, so a form it did not write is refused rather than guessed at.
    static func wantedState(_ form: QueryParameters, field: String) throws -> Bool {
        switch form[field] {
        case "true": return true
        case "false": return false
        default:
            throw HTTPError(.badRequest, "The form must say \(field)=true or \(field)=false. Nothing was changed.")
        }
    }

    /// The page of a long list from `?page=` (issue 21 point 4): 1 when absent; anything but a plain page number is a
    /// 400 that says what a page is.
    static func page(_ request: Request) throws -> Int {
        guard let number = Pager.parse(request.query["page"]) else {
            throw HTTPError(.badRequest, "A page is a number from 1, as in ?page=2.")
        }
        return number
    }

    /// The 404 of a page past a list's last: it names how many pages there are.
    static func pastLastPage(_ number: Int, pages: Int, of what: String) -> HTTPError {
        HTTPError(
            .notFound,
            "There is no page \(number) of \(what): \(pages == 1 ? "it has 1 page" : "they fill \(pages) pages").")
    }

    /// The chart's range from `?range=`: an hour when absent; anything else but day, week or month is a 400 that
    /// names the choices (as `?sort=` on People), so a mistyped link does not silently show another range.
    static func range(_ request: Request) throws -> HistoryRange {
        guard let range = HistoryRange.parse(request.query["range"]) else {
            throw HTTPError(.badRequest, "Show a range of hour, day, week or month.")
        }
        return range
    }
}
