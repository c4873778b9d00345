/// A responder's one answer to a request (issue 45 point 3): the response now, or the work that will give it.
///
/// A responder decides once, on the connection's event loop: a warm page is `.now` and is written without a task
/// hop (issue 21); anything that must wait is `.later`, whose work carries what was already decided (the site, the
/// route, the checked request), so nothing is decided twice. A middleware maps over the answer once.
public enum Answer: Sendable {
    /// The response, given at once on the event loop.
    case now(Response)
    /// The work that gives the response, awaited on the connection's handler task.
    case later(@Sendable () async throws -> Response)
    /// A wait that holds no task (a parked long poll): the response comes when it ends (`ParkedAnswer`).
    case parked(ParkedAnswer)

    /// This answer with `transform` applied to its response: at once to `.now`, after the work of `.later`.
    @inlinable
    public func map(_ transform: @escaping @Sendable (Response) -> Response) -> Answer {
        switch self {
        case .now(let response): .now(transform(response))
        case .later(let work): .later { transform(try await work()) }
        case .parked(let parked): .parked(parked.map(transform))
        }
    }

    /// This answer with an error its work throws turned into a response by `recover` (an error thrown while
    /// answering is the responder's caller's to catch).
    @inlinable
    public func recover(_ recover: @escaping @Sendable (any Error) -> Response) -> Answer {
        switch self {
        case .now: self
        case .later(let work):
            .later {
                do { return try await work() } catch { return recover(error) }
            }
        case .parked(let parked): .parked(parked.recover(recover))
        }
    }

    /// The response, awaiting the work if there is any.
    @inlinable
    public func response() async throws -> Response {
        switch self {
        case .now(let response): response
        case .later(let work): try await work()
        case .parked(let parked): try await parked.response()
        }
    }
}
