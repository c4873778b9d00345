/// `GET /userStats[?ids=a,b]`.
public struct UserStatisticsRequest: APIRequest {
    /// One entry per user asked for (that exists).
    public typealias Response = [UserStatistics]
    /// The users to ask for; nil for all.
    public var userIDs: [String]?
    /// Creates the request.
    public init(userIDs: [String]? = nil) { self.userIDs = userIDs }
    public var endpoint: Endpoint { .userStats }
    public var path: String { "/userStats" }
    public var queryItems: [QueryItem] {
        userIDs.map { [QueryItem(name: "ids", value: $0.joined(separator: ","))] } ?? []
    }
}
