/// `GET /combinedStats`: user and habit statistics in one answer.
public struct CombinedStatisticsRequest: APIRequest {
    /// Both kinds of statistics.
    public typealias Response = CombinedStatistics
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .combinedStats }
    public var path: String { "/combinedStats" }
}
