/// `GET /categories`.
public struct CategoriesRequest: APIRequest {
    /// Every category.
    public typealias Response = [Category]
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .categories }
    public var path: String { "/categories" }
}
