import HTTPCore

/// The settings database did not take a change (down, hung, or reconnecting): 503 with `Retry-After`, and a page
/// that says plainly nothing was saved (issue 19 point 6), or, when the change was sent and its commit never
/// answered (`unconfirmed`, issue 49 point 2), that it may have been. Pages keep being served from memory meanwhile.
public struct SettingsUnavailable: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// What the database layer said, for the log only.
    public var reason: String
    /// The change reached the database's commit and no answer came back: it may have been saved.
    public var unconfirmed: Bool

    /// Creates the error.
    public init(reason: String, unconfirmed: Bool = false) {
        self.reason = reason
        self.unconfirmed = unconfirmed
    }

    public var status: HTTPStatus { .serviceUnavailable }
    public var publicMessage: String {
        unconfirmed
            ? "Your change was sent, but the settings database did not confirm it, so it may or may not have been "
                + "saved. Reload the page in a few seconds to see."
            : "Your settings could not be reached just now, so nothing was saved. Please try again in a few seconds."
    }
    public var responseHeaders: [(name: String, value: String)] { [("Retry-After", "5")] }
}
