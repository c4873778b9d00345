import HTTPCore

/// A complete upstream answer: status, headers, whole (de-chunked) body.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status (HTTPCore's `HTTPStatus`, the server's too; the reason phrase is the standard one, since the
    /// one sent is ignored, RFC 9112 §4).
    public var status: HTTPStatus
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
