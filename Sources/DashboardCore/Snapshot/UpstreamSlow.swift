import HTTPCore

/// A request that needs the upstream waited its bound (`SnapshotState.Policy.upstreamWait`) and the upstream has not
/// answered: 503 with `Retry-After` at once, through the one place errors become answers (`ErrorAnswers`, then
/// `ErrorResponse`), instead of holding the connection for the upstream's whole timeout (issue 23 point 3: a hanging
/// upstream must not make every request hold a slot).
struct UpstreamSlow: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// Seconds a client should wait before asking again.
    static let retryAfter = 5

    var status: HTTPStatus { .serviceUnavailable }
    var publicMessage: String { "The Habits service is slow to answer. Please try again in a few seconds." }
    /// RFC 9110 §10.2.3.
    var responseHeaders: [(name: String, value: String)] { [("Retry-After", String(Self.retryAfter))] }
}
