import Foundation
import HTTPCore

@testable import HabitsAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The upstream client built on `URLSession`: kept as the measured alternative to `SocketTransport`, in the tests
/// only (`UpstreamClientBenchmarkTests`): FoundationNetworking links libcurl, which a release built with the Swift
/// runtime linked statically cannot carry (issue 20: its binaries need only the base system's libraries). It reuses
/// connections, but costs several times more per call here and has no separate connect timeout; see
/// `SocketTransport` for the numbers.
public final class URLSessionTransport: HTTPTransport {
    /// The upstream and its limits.
    public let configuration: UpstreamConfiguration
    private let session: URLSession

    /// Creates a transport with its own session (no cache, no cookies, a small connection pool).
    public init(configuration: UpstreamConfiguration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.totalTimeout.inSeconds
        sessionConfiguration.timeoutIntervalForResource = configuration.totalTimeout.inSeconds
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxIdleConnections
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPClientRequest) async throws(HabitsAPIError) -> HTTPClientResponse {
        guard let url = URL(string: configuration.origin + request.target) else {
            throw .transport("invalid request target \(request.target)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: configuration.totalTimeout.inSeconds)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw .transport(error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw .transport("not an HTTP response") }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return HTTPClientResponse(status: HTTPStatus(code: http.statusCode), headers: headers, body: Array(data))
    }
}
