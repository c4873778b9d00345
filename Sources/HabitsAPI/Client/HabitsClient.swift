import HTTPServer

/// The Habits API over HTTP: sends typed `APIRequest`s through a transport and decodes the answers.
///
/// Non-2xx answers become `.status(code, path:)`, bodies that do not decode `.decoding(type:detail:)`, and
/// everything the transport cannot do `.transport`. No caching here: put `CachedHabitsAPI` in front.
public struct HabitsClient: HabitsAPI {
    /// The upstream.
    public let configuration: UpstreamConfiguration
    private let transport: any HTTPTransport

    /// Creates a client; the transport defaults to the keep-alive socket client.
    public init(configuration: UpstreamConfiguration, transport: (any HTTPTransport)? = nil) {
        self.configuration = configuration
        self.transport = transport ?? SocketTransport(configuration: configuration)
    }

    /// Sends one request and decodes its answer.
    public func send<R: APIRequest>(_ request: R) async throws(HabitsAPIError) -> R.Response {
        var headers: HTTPHeaders = ["Accept": request.endpoint == .image ? "image/png, */*" : "application/json"]
        headers.add(name: "User-Agent", value: "habits-dashboard")
        if request.postBody != nil { headers.add(name: "Content-Type", value: "application/json") }
        let response = try await transport.send(
            HTTPClientRequest(
                method: request.method, target: configuration.basePath + request.target, headers: headers,
                body: request.postBody))
        guard (200..<300).contains(response.status) else { throw .status(response.status, path: request.target) }
        return try request.decode(response)
    }

    public func users() async throws -> [String: User] { try await send(UsersRequest()) }
    public func habits() async throws -> [String: Habit] { try await send(HabitsRequest()) }
    public func categories() async throws -> [Category] { try await send(CategoriesRequest()) }
    public func userStatistics(ids: [String]?) async throws -> [UserStatistics] {
        try await send(UserStatisticsRequest(userIDs: ids))
    }
    public func habitStatistics(names: [String]?) async throws -> [HabitStatistics] {
        try await send(HabitStatisticsRequest(habitNames: names))
    }
    public func combinedStatistics() async throws -> CombinedStatistics {
        try await send(CombinedStatisticsRequest())
    }
    public func userLeadingStatistics(id: String) async throws -> UserStatistics {
        try await send(UserLeadingStatisticsRequest(userID: id))
    }
    public func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        try await send(ImageRequest(userID: id))
    }
    public func log(_ habit: LoggedHabit) async throws { try await send(LogHabitRequest(habit)) }
}
