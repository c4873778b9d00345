/// Something that sends one HTTP request upstream and returns the whole response: the socket client (or, in the
/// benchmark tests, URLSession).
public protocol HTTPTransport: Sendable {
    /// Sends `request`; transport problems (refused, timed out, malformed answer) throw `.transport`.
    func send(_ request: HTTPClientRequest) async throws(HabitsAPIError) -> HTTPClientResponse
}
