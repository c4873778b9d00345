/// Making room at the connection cap: what the server sees of a connection (`Eviction` orders the standings),
/// and what an eviction does to it.
extension ConnectionState {
    /// What the server sees of a connection when it must make room for a new one (`Eviction` orders them).
    enum Standing: Equatable, Sendable {
        /// Between requests (or before the first), since then.
        case idle(since: Instant)
        /// A handler holds a long poll that can be answered at once (its 304), since then.
        case parked(since: Instant)
        /// Receiving a request head or body: `bytes` of it since `since`.
        case receiving(since: Instant, bytes: Int)
        /// Writing an answer the peer is slow to take: `bytes` taken since the socket first refused some.
        case sending(since: Instant, bytes: Int)
        /// A handler is waiting on the upstream, since then; its answer can be given up.
        case waitingOnUpstream(since: Instant)
        /// A handler is working; what it is doing is in its `RequestActivity` (the connection asks it).
        case handling
        /// An answer is going out as fast as the socket takes it, or being lingered over.
        case busy
    }

    /// The connection's standing now, as far as the state knows it (a handler's work is `.handling`).
    var standing: Standing {
        switch phase {
        case .idle(let since): .idle(since: since)
        case .readingHead(let since, let received): .receiving(since: since, bytes: received)
        case .readingBody(let body): .receiving(since: body.started, bytes: body.received)
        case .responding: .handling
        case .writing: sendProgress.map { .sending(since: $0.started, bytes: $0.sent) } ?? .busy
        case .lingering, .closed: .busy
        }
    }
}
