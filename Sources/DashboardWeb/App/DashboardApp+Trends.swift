import DashboardCore
import HTTPServer

extension DashboardApp {
    /// The chart's range from `?range=`: an hour when absent; anything else but day, week or month is a 400 that
    /// names the choices (as `?sort=` on People), so a mistyped link does not silently show another range.
    static func range(_ request: Request) throws -> HistoryRange {
        guard let range = HistoryRange.parse(request.query["range"]) else {
            throw HTTPError(.badRequest, "Show a range of hour, day, week or month.")
        }
        return range
    }

    /// What a range adds to a fragment's render-cache route.
    static func rangeSuffix(_ range: HistoryRange) -> String { range.query.isEmpty ? "" : "?" + range.query }
}
