/// `GET /combinedStats`: user and habit statistics in one answer.
public struct CombinedStatisticsRequest: APIRequest {
    /// Both kinds of statistics.
    public typealias Response = CombinedStatistics
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .combinedStats }
    public var path: String { "/combinedStats" }

    /// Decoded from the bytes by `StatisticsJSONDecoder` (issue 21 point 2: a refresh's CPU), not `JSONDecoder`.
    public func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) -> CombinedStatistics {
        do {
            return try StatisticsJSONDecoder.decode(response.body)
        } catch {
            throw .decoding(type: "CombinedStatistics", detail: error.description)
        }
    }

    /// Decoded as above, taking each entry whose bytes the previous answer had from `memo`.
    public func decode(_ response: HTTPClientResponse, reusing memo: DecodeMemo) throws(HabitsAPIError)
        -> CombinedStatistics
    {
        try memo.withStatistics { (statistics: inout StatisticsDecodeMemo) throws(HabitsAPIError) in
            do throws(StatisticsJSONDecoder.Failure) {
                return try statistics.decode(response.body)
            } catch {
                throw .decoding(type: "CombinedStatistics", detail: error.description)
            }
        }
    }
}
