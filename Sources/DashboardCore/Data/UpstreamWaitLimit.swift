import Synchronization

/// Carries out a `WaitingBound` for one kind of request: `POST /log`, whose log call and wait for the refresh after it
/// can each take the upstream's 3 s, so a hanging upstream and a loop of logs would otherwise hold a connection each
/// for as long as the flood lasts (issue 23 point 3).
public final class UpstreamWaitLimit: Sendable {
    private let bound: Mutex<WaitingBound>

    /// At most `limit` run `waiting(or:_:)`'s body at once.
    public init(limit: Int) { bound = Mutex(WaitingBound(limit: limit)) }

    /// Runs `body` counted as waiting on the upstream; throws `refusal` at once, without running it, when `limit`
    /// run already.
    public func waiting<T>(or refusal: @autoclosure () -> any Error, _ body: () async throws -> T) async throws -> T {
        guard bound.withLock({ $0.enter() }) else { throw refusal() }
        defer { bound.withLock { $0.leave() } }
        return try await body()
    }

    /// Requests waiting now.
    var count: Int { bound.withLock { $0.count } }
}
