/// Every kind of upstream call, listed once: what it is called in metrics.
///
/// Adding an endpoint takes this case and one `APIRequest` type; the client, the coalescer and `HabitsAPI` send any
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

    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool { lhs.rawValue < rhs.rawValue }
}
