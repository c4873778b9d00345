import Foundation

/// Where the Habits API lives and how long the dashboard waits for it.
public struct UpstreamConfiguration: Sendable, Equatable {
    /// Host name or address (IPv6 without brackets).
    public var host: String
    /// TCP port.
    public var port: Int
    /// A path prefix before every API path, without a trailing slash (usually empty).
    public var basePath: String
    /// Longest wait for a TCP connection: a dead host must fail fast so pages fall back to stale data.
    public var connectTimeout: Duration = .seconds(1)
    /// Longest wait for a whole call, connecting included.
    public var totalTimeout: Duration = .seconds(3)
    /// Most idle keep-alive connections kept for reuse.
    public var maxIdleConnections = 8
    /// Most calls in flight at once in the socket client; more wait their turn without holding a thread.
    public var maxConcurrentCalls = 16
    /// Idle connections older than this are closed instead of reused, before the server's own idle timeout
    /// (10 s for ours) can race with a new request.
    public var maxIdleTime: Duration = .seconds(4)

    /// Creates a configuration.
    public init(host: String, port: Int, basePath: String = "") {
        self.host = host
        self.port = port
        self.basePath = basePath
    }

    /// Parses `http://host[:port][/base]`. Only plain HTTP is supported (the API runs next to the dashboard).
    public init(url text: String) throws(HabitsAPIError) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "http",
            var host = components.host, !host.isEmpty
        else { throw .transport("upstream URL must look like http://host:port, got '\(text)'") }
        guard components.query == nil, components.fragment == nil, components.user == nil else {
            throw .transport("upstream URL must not have a query, fragment or user: '\(text)'")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? 80
        guard (1...65535).contains(port) else { throw .transport("upstream port out of range in '\(text)'") }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.init(host: host, port: port, basePath: path)
    }

    /// The `Host` header value (RFC 9110 §7.2): brackets around IPv6, port only when not 80.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    /// `http://host:port` for URLSession.
    public var origin: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
}
