/// How far back a habit's or person's chart looks (issue 22 point 2): `?range=hour|day|week|month` on their pages.
///
/// Each range reads the finest tier of `TrendHistory` that reaches back that far: the last hour at 10 s, the last
/// day at 5 min, the last week and month at 1 h.
public enum HistoryRange: String, CaseIterable, Sendable {
    /// The last hour (the default: no `range` parameter).
    case hour
    /// The last 24 hours.
    case day
    /// The last 7 days.
    case week
    /// The last 30 days.
    case month

    /// The range of a `?range=` value: an hour when absent; nil for anything else, an empty value included, which
    /// the page answers with 400 (issue 47 point 4), so a mistyped link says so instead of silently showing another
    /// range.
    public static func parse(_ value: String?) -> HistoryRange? {
        guard let value else { return .hour }
        return HistoryRange(rawValue: value)
    }

    /// The link text: "1 hour".
    public var title: String {
        switch self {
        case .hour: "1 hour"
        case .day: "1 day"
        case .week: "1 week"
        case .month: "1 month"
        }
    }

    /// How the change over the range is worded after the number: "+41 this week".
    public var changeWording: String {
        switch self {
        case .hour: "in the last hour"
        case .day: "in the last day"
        case .week: "this week"
        case .month: "this month"
        }
    }

    /// The span in seconds.
    public var seconds: Int {
        switch self {
        case .hour: 3_600
        case .day: 86_400
        case .week: 7 * 86_400
        case .month: 30 * 86_400
        }
    }

    /// Which tier of `TrendHistory.standardTiers` draws it.
    var tier: Int {
        switch self {
        case .hour: 0
        case .day: 1
        case .week, .month: 2
        }
    }

    /// The query string that selects it on a page ("" for the default hour, so existing links stay as they are).
    public var query: String { self == .hour ? "" : "range=" + rawValue }

    /// The page at `path` (a link from `Links`, which may carry a query already) showing this range.
    public func url(_ path: String) -> String {
        query.isEmpty ? path : path + (path.contains("?") ? "&" : "?") + query
    }
}
