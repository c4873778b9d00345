/// What a responder's answers given at once depend on beyond the request itself, as a number that moves whenever any
/// of them may change: the dashboard's snapshot generation (new data, a changed setting) and the quarter-second of
/// its clock (issue 21). While it stays put, a reusable answer (`Response.isReusable`) is the answer to the very same
/// request from the same peer, so the server gives it again without asking the responder.
public struct AnswerEpoch: Sendable {
    /// The epoch now.
    public let current: @Sendable () -> UInt64

    /// An epoch read by calling `current`, once per request that may be answered at once: it must be cheap (an
    /// atomic load and a clock read, no lock).
    public init(_ current: @escaping @Sendable () -> UInt64) { self.current = current }
}
