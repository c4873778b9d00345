import HTTPServer

/// A new browser tried to save settings while the store already holds its cap of files: answered 503, nothing written.
///
/// The cap exists because anyone can mint cookies; without it a script could fill the disk one file per request.
public struct SettingsStoreFull: HTTPResponseError, Equatable {
    /// The configured cap.
    public var limit: Int

    /// Creates the error.
    public init(limit: Int) { self.limit = limit }

    public var status: HTTPStatus { .serviceUnavailable }
    public var publicMessage: String {
        "This dashboard cannot save settings for new browsers right now, so your change was not saved. Please try later."
    }
}
