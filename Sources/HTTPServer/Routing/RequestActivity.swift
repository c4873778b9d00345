import Synchronization
import Timing

/// What a handler says it is waiting for, so that the server can make room at the connection cap fairly (issue
/// 23): a parked long poll can be answered at once, and a handler waiting on a slow upstream can be given up, but a
/// handler at work must never be cut off. One per connection, handed to each of its requests in `RequestContext`;
/// the server reads it from the accept thread (hence the lock).
///
/// Interruption is cooperative: the server cancels the handler's task, and code that parks honours cancellation by
/// returning what it would have returned on its timeout (a long poll: its 304).
public final class RequestActivity: Sendable {
    private enum Kind: Equatable {
        case working
        case parked(since: ContinuousClock.Instant)
        case waitingOnUpstream(since: ContinuousClock.Instant)
    }

    private let kind = Mutex(Kind.working)

    /// A handler at work (each request starts so).
    public init() {}

    /// Runs `body` (a long poll that returns early when its task is cancelled) marked as parked since `now`, the
    /// caller's clock's (the server reads no clock of its own; parked polls are only ordered among themselves).
    public func parked<T>(since now: ContinuousClock.Instant, _ body: () async throws -> T) async rethrows -> T {
        kind.withLock { $0 = .parked(since: now) }
        defer { kind.withLock { $0 = .working } }
        return try await body()
    }

    /// Marks the handler parked since `now` until `endParking()`: a wait that holds no task (`ParkedAnswer`) has no
    /// body to run inside `parked(since:_:)`.
    public func beginParking(since now: ContinuousClock.Instant) { kind.withLock { $0 = .parked(since: now) } }

    /// Ends what `beginParking(since:)` began: the handler is at work again.
    public func endParking() { kind.withLock { $0 = .working } }

    /// Runs `body` (a call to the upstream) marked as waiting on the upstream since `now`, the caller's clock's.
    public func waitingOnUpstream<T>(since now: ContinuousClock.Instant, _ body: () async throws -> T) async rethrows
        -> T
    {
        kind.withLock { $0 = .waitingOnUpstream(since: now) }
        defer { kind.withLock { $0 = .working } }
        return try await body()
    }

    /// Whether the handler is parked now (for tests of code that parks).
    public var isParked: Bool {
        if case .parked = kind.withLock({ $0 }) { true } else { false }
    }

    /// Whether the handler is waiting on the upstream now (for tests of code that waits on it).
    public var isWaitingOnUpstream: Bool {
        if case .waitingOnUpstream = kind.withLock({ $0 }) { true } else { false }
    }

    /// The standing of a connection whose handler is running.
    var standing: ConnectionState.Standing {
        switch kind.withLock({ $0 }) {
        case .working: .handling
        case .parked(let since): .parked(since: MonotonicInstant(since))
        case .waitingOnUpstream(let since): .waitingOnUpstream(since: MonotonicInstant(since))
        }
    }
}
