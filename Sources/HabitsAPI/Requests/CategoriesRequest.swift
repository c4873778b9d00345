/// `GET /categories`.
public struct CategoriesRequest: APIRequest {
    /// Every category.
    public typealias Response = [Category]
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .categories }
    public var path: String { "/categories" }
    public func fetch(from api: any HabitsAPI) async throws -> Response { try await api.categories() }
}
