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
    /// Longest wait for the first byte of an answer, from the call (connecting and a free place included): a
    /// hanging upstream fails this fast. An answer that has started may take longer while it keeps arriving
    /// (`AnswerDeadline`): no gap of `stallTimeout`, at least `minimumAnswerRate` on average.
    public var totalTimeout: Duration = .seconds(3)
    /// Longest gap without a byte once an answer has started.
    public var stallTimeout: Duration = .seconds(3)
    /// The slowest average an answer may arrive at, bytes a second over the whole call: 256 KiB/s gives a 7 MB
    /// `/combinedStats` (45 000 people) 30 s beyond `totalTimeout`, and an upstream dripping bytes nothing.
    public var minimumAnswerRate = 256 * 1024
    /// The largest answer body accepted (a larger one fails the call and closes its connection): 64 MiB, nine times
    /// the 45 000-person `/combinedStats` (issue 23), so memory stays bounded whatever the upstream sends.
    public var maxAnswerBytes = 64 << 20
    /// Most idle keep-alive connections kept for reuse.
    public var maxIdleConnections = 8
    /// Most calls in flight at once in the socket client; more wait their turn without holding a thread.
    public var maxConcurrentCalls = 16
    /// Idle connections older than this are closed instead of reused, before the server's own idle timeout
    /// (10 s for ours) can race with a new request.
    public var maxIdleTime: Duration = .seconds(4)

    /// The deadline policy of one call's answer.
    public var answerDeadline: AnswerDeadline.Policy {
        AnswerDeadline.Policy(totalTimeout: totalTimeout, stallTimeout: stallTimeout, minimumRate: minimumAnswerRate)
    }

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
