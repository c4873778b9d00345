/// An error whose answer carries header fields of its own, such as `Retry-After` on a 429 or a 503;
/// HTTPServer's `ErrorResponse` adds them to the plain answer, and an app's error page (the dashboard's `ErrorAnswers`) to its page.
public protocol ErrorResponseHeaders {
    /// The fields to add.
    var responseHeaders: [(name: String, value: String)] { get }
}
