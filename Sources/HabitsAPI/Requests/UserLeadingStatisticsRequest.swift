/// `GET /userLeadingStats/<id>`: the habits one user leads.
public struct UserLeadingStatisticsRequest: APIRequest {
    /// The user with only the habits they lead.
    public typealias Response = UserStatistics
    /// The user's id (free text: encoded as one path segment).
    public var userID: String
    /// Creates the request.
    public init(userID: String) { self.userID = userID }
    public var endpoint: Endpoint { .userLeadingStats }
    public var path: String { "/userLeadingStats/" + PathEncoding.encodePathSegment(userID) }
}
