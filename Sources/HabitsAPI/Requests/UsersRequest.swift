/// `GET /users`: every user keyed by id.
public struct UsersRequest: APIRequest {
    /// Users keyed by id.
    public typealias Response = [String: User]
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .users }
    public var path: String { "/users" }
}
