/// Which connection to close when the connection cap is reached and a new client arrives (issue 8: slow bodies
/// held every slot and 46 of 60 probes got 503).
///
/// Idle connections go first, the one idle longest first: they hold a slot for a request that may never come,
/// and a client whose kept-alive connection closes opens a new one (RFC 9112 §9.3.1 lets either side close an
/// idle connection at any time). Then the slowest sender: the connection receiving a head or body with the fewest
/// bytes per second, so a trickling attacker goes before a client that is merely uploading. A connection whose
/// request is being handled (a parked long-poll included) or answered is never chosen. Like nginx's reuse of
/// keep-alive connections when it runs out, but extended to slow senders.
enum Eviction {
    /// Rates are measured over at least this long, so a sender that began a moment ago is not judged on its
    /// first packet (0 bytes in 1 ms would otherwise look slowest of all).
    static let minimumRateWindow: Duration = .seconds(1)

    /// The connection to close among `candidates` at `now`, or nil when every one is busy.
    static func victim<ID>(
        among candidates: some Sequence<(id: ID, standing: ConnectionState.Standing)>, now: ContinuousClock.Instant
    ) -> ID? {
        var oldestIdle: (id: ID, since: ContinuousClock.Instant)?
        var slowest: (id: ID, since: ContinuousClock.Instant, bytes: Int, window: Int64)?
        for candidate in candidates {
            switch candidate.standing {
            case .idle(let since):
                if oldestIdle.map({ since < $0.since }) ?? true { oldestIdle = (candidate.id, since) }
            case .receiving(let since, let bytes):
                let window = milliseconds(max(now - since, minimumRateWindow))
                if let current = slowest {
                    // bytes / window < current.bytes / current.window, without division; ties: the older one.
                    let left = Int64(bytes) * current.window
                    let right = Int64(current.bytes) * window
                    guard left < right || (left == right && since < current.since) else { continue }
                }
                slowest = (candidate.id, since, bytes, window)
            case .busy:
                continue
            }
        }
        return oldestIdle?.id ?? slowest?.id
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
