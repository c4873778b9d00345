import HTTPCore

/// The settings database did not take a change (down, hung, or reconnecting): 503 with `Retry-After`, and a page
/// that says plainly nothing was saved (issue 19 point 6). Pages keep being served from memory meanwhile.
public struct SettingsUnavailable: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// What the database layer said, for the log only.
    public var reason: String

    /// Creates the error.
    public init(reason: String) { self.reason = reason }

    public var status: HTTPStatus { .serviceUnavailable }
    public var publicMessage: String {
        "Your settings could not be reached just now, so nothing was saved. Please try again in a few seconds."
    }
    public var responseHeaders: [(name: String, value: String)] { [("Retry-After", "5")] }
}
