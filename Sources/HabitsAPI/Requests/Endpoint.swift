/// The kinds of upstream call, for metrics and for choosing how long an answer may be reused.
public enum Endpoint: String, Sendable, CaseIterable, Comparable {
    /// `GET /users`
    case users
    /// `GET /habits`
    case habits
    /// `GET /categories`
    case categories
    /// `GET /userStats`
    case userStats
    /// `GET /habitStats`
    case habitStats
    /// `GET /combinedStats`
    case combinedStats
    /// `GET /userLeadingStats/<id>`
    case userLeadingStats
    /// `GET /images/<id>`
    case image
    /// `POST /loggedHabit`
    case logHabit

    /// Whether the answer changes as people log habits (and so may only be reused for a moment).
    public var isLive: Bool {
        switch self {
        case .userStats, .habitStats, .combinedStats, .userLeadingStats: true
        case .users, .habits, .categories, .image, .logHabit: false
        }
    }

    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool { lhs.rawValue < rhs.rawValue }
}
