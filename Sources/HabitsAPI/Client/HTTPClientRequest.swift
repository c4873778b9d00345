import HTTPCore

/// One request as a transport sends it: method, full request-target (base path included), headers, body.
public struct HTTPClientRequest: Sendable, Equatable {
    /// `GET` or `POST` (HTTPCore's `HTTPMethod`, the server's too).
    public var method: HTTPMethod
    /// The origin-form target, e.g. `/userStats?ids=user0`.
    public var target: String
    /// Extra header fields (the transport adds `Host` and framing).
    public var headers: HTTPHeaders
    /// The body of a POST.
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// Whether the request may be sent twice without harm (RFC 9110 §9.2.2), so a dead pooled connection can be
    /// retried on a fresh one.
    public var isIdempotent: Bool { method == .get || method == .head }

    /// The request serialised as HTTP/1.1 bytes for `host`.
    public func serialized(hostHeader: String) -> [UInt8] {
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        return bytes
    }
}
