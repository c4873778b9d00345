/// A `NOTIFY` that arrived on a `LISTEN`ing session.
public struct Notification: Sendable, Equatable {
    /// The channel it was sent on.
    public var channel: String
    /// Its payload (empty when none was given).
    public var payload: String

    /// A notification.
    public init(channel: String, payload: String) {
        self.channel = channel
        self.payload = payload
    }
}
