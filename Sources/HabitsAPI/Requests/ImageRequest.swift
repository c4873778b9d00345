import Foundation

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

    /// Raster image types a profile image may have. Anything else (HTML, JSON, SVG, which can carry script) is a
    /// failed call rather than an image, so the cache never keeps it for the image TTL.
    public static let rasterTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The body as it came; the content type defaults to PNG, which is all the API serves.
    public func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) -> Response {
        let contentType = response.headers["Content-Type"] ?? "image/png"
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.rasterTypes.contains(mediaType) else {
            throw .decoding(type: "image", detail: "content type '\(mediaType.prefix(100))' is not a raster image")
        }
        return (bytes: response.body, contentType: contentType)
    }
}
