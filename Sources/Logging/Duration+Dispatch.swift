import Dispatch

extension Duration {
    /// The duration as a Dispatch interval (nanosecond precision, negative clamped to zero).
    public var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(0, nanoseconds)))
    }
}
