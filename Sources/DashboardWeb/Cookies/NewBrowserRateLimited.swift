import DashboardCore
import HTTPCore

/// A client asked for more new browser ids than `NewBrowserLimiter` allows: 429 with `Retry-After`, nothing written.
public struct NewBrowserRateLimited: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// Seconds until the client may try again.
    public var retryAfter: Int

    /// Creates the error.
    public init(retryAfter: Int) { self.retryAfter = retryAfter }

    public var status: HTTPStatus { .tooManyRequests }
    public var publicMessage: String {
        "Too many new visitors came from your address in a short time, so your change was not saved. "
            + "Please try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s")."
    }
    /// RFC 9110 §10.2.3 (and RFC 6585 §4 for 429).
    public var responseHeaders: [(name: String, value: String)] { [("Retry-After", String(retryAfter))] }
}
