import DashboardCore
import HTTPCore

/// `POST /log` turned away because `WebContext.logWaitLimit` requests wait on the upstream already (issue 23
/// point 3): a 503 with `Retry-After` at once, before anything is sent upstream, saying so.
struct LogBusy: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// Seconds a client should wait before asking again.
    static let retryAfter = 5

    var status: HTTPStatus { .serviceUnavailable }
    var publicMessage: String {
        "Too many habits are being logged at once, so nothing was logged. Please try again in a few seconds."
    }
    /// RFC 9110 §10.2.3.
    var responseHeaders: [(name: String, value: String)] { [("Retry-After", String(Self.retryAfter))] }
}
