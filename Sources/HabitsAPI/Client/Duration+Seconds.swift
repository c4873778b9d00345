extension Duration {
    /// The duration in seconds, for APIs that take a `TimeInterval` (URLSession) or print seconds.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
