import HTTPCore

/// The Habits API over HTTP: sends typed `APIRequest`s through a transport and decodes the answers.
///
/// Non-2xx answers become `.status(code, path:)`, bodies that do not decode `.decoding(type:detail:)`, and
/// everything the transport cannot do `.transport`. No caching here: the dashboard puts a `RequestCoalescer` in front.
public struct HabitsClient: HabitsAPI {
    /// The upstream.
    public let configuration: UpstreamConfiguration
    private let transport: any HTTPTransport
    /// What the last answers leave for decoding the next ones (issue 21 point 2).
    private let memo = DecodeMemo()

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
        guard (200..<300).contains(response.status.code) else {
            throw .status(response.status.code, path: request.target)
        }
        return try request.decode(response, reusing: memo)
    }
}
