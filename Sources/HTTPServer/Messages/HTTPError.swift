import HTTPCore

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
