import Foundation
import HTTPCore

/// One Habits API call, described as data, as the original iOS app's client did: what it returns, where it goes,
/// what it sends.
///
/// The client turns it into bytes and decodes the answer with `decode(_:)`; the cache keys on `method` and `target`.
/// Every `HabitsAPI` sends any request through its one generic `send(_:)`, so the answer keeps the request's type.
public protocol APIRequest: Sendable {
    /// What a successful call returns.
    associatedtype Response: Sendable

    /// Which endpoint this is, for metrics.
    var endpoint: Endpoint { get }
    /// The path below the upstream base, each segment already percent-encoded (e.g. `/userLeadingStats/a%2Fb`).
    var path: String { get }
    /// Query items, not yet encoded; empty for none.
    var queryItems: [QueryItem] { get }
    /// A JSON body, which makes the request a POST; nil for a GET.
    var postBody: [UInt8]? { get }

    /// Turns a 2xx answer into the response.
    func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) -> Response
    /// Turns a 2xx answer into the response, with what the client kept from earlier answers (`DecodeMemo`).
    func decode(_ response: HTTPClientResponse, reusing memo: DecodeMemo) throws(HabitsAPIError) -> Response
}

/// One `name=value` pair of a query string.
public struct QueryItem: Equatable, Sendable {
    /// The name.
    public var name: String
    /// The value, not yet encoded.
    public var value: String
    /// Creates an item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension APIRequest {
    /// No query by default.
    public var queryItems: [QueryItem] { [] }
    /// GET by default.
    public var postBody: [UInt8]? { nil }
    /// Most answers have no use for a memo.
    public func decode(_ response: HTTPClientResponse, reusing memo: DecodeMemo) throws(HabitsAPIError) -> Response {
        try decode(response)
    }

    /// `GET` or `POST` (HTTPCore's `HTTPMethod`, the server's too).
    public var method: HTTPMethod { postBody == nil ? .get : .post }

    /// Path plus encoded query: the request-target below the base path, and the cache key.
    public var target: String {
        guard !queryItems.isEmpty else { return path }
        let query = queryItems.map {
            PathEncoding.encodeQueryValue($0.name) + "=" + PathEncoding.encodeQueryValue($0.value)
        }
        return path + "?" + query.joined(separator: "&")
    }
}

extension APIRequest where Response: Decodable {
    /// Decodes the JSON body; a mismatch is a `.decoding` error naming the type and what was wrong.
    public func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: Data(response.body))
        } catch let error as DecodingError {
            throw .decoding(type: String(describing: Response.self), detail: Self.describe(error))
        } catch {
            throw .decoding(type: String(describing: Response.self), detail: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key '\(key.stringValue)'"
        @unknown default:
            return "\(error)"
        }
    }
}
