import Foundation
import HTTPCore

/// A response a handler returns. The connection adds `Date`, `Content-Length` and `Connection`.
public struct Response: Sendable, Equatable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields (use `add` for repeatable fields like `Set-Cookie`).
    public var headers: HTTPHeaders
    /// The whole body. Empty for HEAD answers is handled by the connection, not here.
    public var body: [UInt8]
    /// Whether the server may give this answer, given at once (`Answer.now`), again to the same
    /// request head from the same peer while its `AnswerEpoch` stays put, without asking the responder (issue 21):
    /// true only for an answer that depends on nothing else, such as a page from the render cache.
    public var isReusable: Bool

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = [], isReusable: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.isReusable = isReusable
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A `text/html; charset=utf-8` response from already-rendered (already-escaped) HTML.
    public static func html(_ html: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: html)
    }

    /// An `application/json` response from raw JSON bytes.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// An `application/json` response encoding `value`.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok, encoder: JSONEncoder = JSONEncoder())
        throws -> Response
    {
        try json(Array(encoder.encode(value)), status: status)
    }

    /// A redirect; 303 by default, the answer to a form POST (Post/Redirect/Get).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }
}
