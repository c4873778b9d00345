/// Every kind of upstream call, listed once: what it is called in metrics and how long its answer may be reused.
///
/// Adding an endpoint takes this case and one `APIRequest` type; the client, the cache and `HabitsAPI` send any
/// `APIRequest` through one generic path, so none of them lists the endpoints again.
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

    /// How an answer of an endpoint ages; `CachePolicy` gives each a time to live.
    public enum Lifetime: Sendable {
        /// Statistics: change as people log habits, so reused for a moment only.
        case live
        /// Users, habits, categories: change rarely.
        case reference
        /// Profile images.
        case image
        /// A write: never cached, passed straight through.
        case write
    }

    /// How this endpoint's answers age.
    public var lifetime: Lifetime {
        switch self {
        case .userStats, .habitStats, .combinedStats, .userLeadingStats: .live
        case .users, .habits, .categories: .reference
        case .image: .image
        case .logHabit: .write
        }
    }

    /// Whether the answer changes as people log habits (and so may only be reused for a moment).
    public var isLive: Bool { lifetime == .live }

    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool { lhs.rawValue < rhs.rawValue }
}
