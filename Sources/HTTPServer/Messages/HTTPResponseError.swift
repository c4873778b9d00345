/// An error a handler means the user to see: the server answers with `status` and `publicMessage`.
///
/// Anything else a handler throws is logged and answered with a generic 500 that reveals nothing.
public protocol HTTPResponseError: Error {
    /// The status to answer with.
    var status: HTTPStatus { get }
    /// A short, plain message safe to show to anyone.
    var publicMessage: String { get }
}

/// A ready-made `HTTPResponseError` for handlers that only need a status and a message.
public struct HTTPError: HTTPResponseError, Equatable {
    /// The status to answer with.
    public var status: HTTPStatus
    /// The message shown to the client.
    public var publicMessage: String

    /// Creates an error; the message defaults to the status's reason phrase.
    public init(_ status: HTTPStatus, _ message: String? = nil) {
        self.status = status
        self.publicMessage = message ?? status.reason
    }
}
