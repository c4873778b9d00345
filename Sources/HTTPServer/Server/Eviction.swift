import Timing

/// Which connection to close when the connection cap is reached and a new client arrives. A pure value: the
/// server gives it every admitted connection's address and standing, and carries out its choice.
///
/// Fair by address (issue 23: four addresses, each within its share, held all 1024 slots with pipelined slow
/// readers or image requests waiting on a hanging upstream, and a fifth client got 503 for most of its pages): the
/// victim comes from the address holding the most connections, and never from an address holding fewer than the
/// newcomer's. So a newcomer from an address that holds less than the largest holder always gets in while that
/// holder has a connection that can be closed, and no number of addresses smaller than the cap can keep a new
/// address out. Among that holder's connections the one that costs least to close goes (issue 8's order, extended):
/// 1. idle, the one idle longest first: it holds a slot for a request that may never come (RFC 9112 §9.3.1 lets
///    either side close an idle connection);
/// 2. a parked long poll, the oldest first: it is answered its 304 at once, which is what it would have got later;
/// 3. the slowest peer, reader or sender alike: the fewest bytes per second of a head or body still arriving, or of
///    an answer the peer is not reading;
/// 4. a handler waiting on the upstream, the one waiting longest first: its answer is given up.
/// A handler that is working, or an answer the socket is taking, is never chosen.
enum Eviction {
    /// Rates are measured over at least this long, so a peer that began a moment ago is not judged on its first
    /// packet (0 bytes in 1 ms would otherwise look slowest of all).
    static let minimumRateWindow: Duration = .seconds(1)

    /// One admitted connection as the choice sees it.
    struct Candidate<ID> {
        /// What the server knows it by.
        var id: ID
        /// Its client address (what the per-address share counts by).
        var address: String
        /// What it is doing.
        var standing: ConnectionState.Standing
    }

    /// The connection to close among `candidates` at `now` to admit a newcomer from `newcomer`, or nil when no
    /// connection of an address holding at least as many as the newcomer's can be closed.
    static func victim<ID>(among candidates: [Candidate<ID>], newcomer: String, now: MonotonicInstant) -> ID? {
        var byAddress: [String: [Int]] = [:]
        for (index, candidate) in candidates.enumerated() { byAddress[candidate.address, default: []].append(index) }
        let own = byAddress[newcomer]?.count ?? 0
        // Holders by size, largest first; addresses of one size are judged together.
        let levels = Dictionary(grouping: byAddress.values.filter { $0.count >= own }, by: \.count)
        for size in levels.keys.sorted(by: >) {
            let indices = Array(levels[size, default: []].joined())
            if let index = cheapest(indices.map { candidates[$0].standing }, now: now) {
                return candidates[indices[index]].id
            }
        }
        return nil
    }

    /// The position in `standings` of the one that costs least to close, or nil when all are busy.
    static func cheapest(_ standings: some Sequence<ConnectionState.Standing>, now: MonotonicInstant) -> Int? {
        var oldestIdle: (index: Int, since: MonotonicInstant)?
        var oldestParked: (index: Int, since: MonotonicInstant)?
        var slowest: (index: Int, since: MonotonicInstant, bytes: Int, window: Int64)?
        var longestUpstream: (index: Int, since: MonotonicInstant)?
        for (index, standing) in standings.enumerated() {
            switch standing {
            case .idle(let since):
                if oldestIdle.map({ since < $0.since }) ?? true { oldestIdle = (index, since) }
            case .parked(let since):
                if oldestParked.map({ since < $0.since }) ?? true { oldestParked = (index, since) }
            case .receiving(let since, let bytes), .sending(let since, let bytes):
                let window = max(now - since, minimumRateWindow).wholeMilliseconds
                if let current = slowest {
                    // bytes / window < current.bytes / current.window, without division; ties: the older one.
                    let left = Int64(bytes) * current.window
                    let right = Int64(current.bytes) * window
                    guard left < right || (left == right && since < current.since) else { continue }
                }
                slowest = (index, since, bytes, window)
            case .waitingOnUpstream(let since):
                if longestUpstream.map({ since < $0.since }) ?? true { longestUpstream = (index, since) }
            case .handling, .busy:
                continue
            }
        }
        return oldestIdle?.index ?? oldestParked?.index ?? slowest?.index ?? longestUpstream?.index
    }
}
