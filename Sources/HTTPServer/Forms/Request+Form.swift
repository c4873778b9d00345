import HTTPCore

extension Request {
    /// The body decoded as `application/x-www-form-urlencoded`.
    ///
    /// Throws a 415 `HTTPError` when the request says another media type (a JSON body posted to a form
    /// endpoint is a client mistake worth naming), and a 400 when the body is not UTF-8.
    public func formParameters() throws -> QueryParameters {
        guard let contentType = headers["Content-Type"], Self.isFormURLEncoded(contentType) else {
            throw HTTPError(.unsupportedMediaType, "Expected an application/x-www-form-urlencoded body.")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, "The form body is not valid UTF-8.")
        }
        return QueryParameters(parsing: text[...])
    }

    /// Compares the media type (before any `;` parameters) case-insensitively, RFC 9110 §8.3.1.
    static func isFormURLEncoded(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return HTTPHeaders.equal(trimmed(mediaType), "application/x-www-form-urlencoded")
    }

    /// Strips optional whitespace (SP / HTAB) from both ends.
    static func trimmed(_ text: Substring) -> String {
        text.trimmingASCIIWhitespace()
    }
}
