import HTTPCore

/// The head of a request as the parser produced it: nothing decoded or interpreted yet.
public struct RequestHead: Sendable, Equatable {
    /// The method token.
    public var method: HTTPMethod
    /// The request-target exactly as sent (origin-form, e.g. `/habits/Yoga?x=1`).
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders

    /// Creates a request head.
    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }
}

/// A complete request: head plus the whole (de-chunked) body.
///
/// Target helpers (`path`, `pathSegments`, `query`), form decoding and cookies live in
/// `Request+Target.swift`, `Request+Form.swift` and `Request+Cookies.swift`.
public struct Request: Sendable, Equatable {
    /// The parsed head.
    public var head: RequestHead
    /// The body bytes (empty when there is none).
    public var body: [UInt8]

    /// Creates a request.
    public init(head: RequestHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    /// Convenience for tests and handlers: a request from its parts.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.init(head: RequestHead(method: method, target: target, version: version, headers: headers), body: body)
    }

    /// The method.
    public var method: HTTPMethod { head.method }
    /// The headers.
    public var headers: HTTPHeaders { head.headers }
    /// The protocol version.
    public var version: HTTPVersion { head.version }
}
