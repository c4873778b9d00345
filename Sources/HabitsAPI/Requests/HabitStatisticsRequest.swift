/// `GET /habitStats[?names=A,B]`.
public struct HabitStatisticsRequest: APIRequest {
    /// One entry per habit asked for (that exists), including habits nobody logged.
    public typealias Response = [HabitStatistics]
    /// The habits to ask for; nil for all.
    public var habitNames: [String]?
    /// Creates the request.
    public init(habitNames: [String]? = nil) { self.habitNames = habitNames }
    public var endpoint: Endpoint { .habitStats }
    public var path: String { "/habitStats" }
    public var queryItems: [QueryItem] {
        habitNames.map { [QueryItem(name: "names", value: $0.joined(separator: ","))] } ?? []
    }
}
