/// An error whose error page carries header fields of its own, such as `Retry-After` on a 429; `ErrorPages` adds
/// them to the page it renders.
public protocol ErrorResponseHeaders {
    /// The fields to add.
    var responseHeaders: [(name: String, value: String)] { get }
}
