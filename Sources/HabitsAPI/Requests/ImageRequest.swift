/// `GET /images/<id>`: a profile image.
public struct ImageRequest: APIRequest {
    /// The image bytes and their content type.
    public typealias Response = (bytes: [UInt8], contentType: String)
    /// The user's id (free text: encoded as one path segment).
    public var userID: String
    /// Creates the request.
    public init(userID: String) { self.userID = userID }
    public var endpoint: Endpoint { .image }
    public var path: String { "/images/" + PathEncoding.encodePathSegment(userID) }

    /// The body as it came; the content type defaults to PNG, which is all the API serves.
    public func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) -> Response {
        (bytes: response.body, contentType: response.headers["Content-Type"] ?? "image/png")
    }

    public func fetch(from api: any HabitsAPI) async throws -> Response { try await api.image(id: userID) }
}
