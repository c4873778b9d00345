import HTTPCore

/// A complete upstream answer: status, headers, whole (de-chunked) body.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
