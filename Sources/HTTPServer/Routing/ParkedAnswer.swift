import Timing

/// An answer that waits holding no task (issue 46 point 2): a parked long poll leaves a callback where it waits, and
/// the connection is answered on its own loop when the callback gives the response. 10 000 live viewers each holding
/// a suspended handler task cost most of the CPU a change took (the tasks' resumption, their frames, the handler run
/// again from the top); a parked answer costs a closure.
///
/// `start` begins the wait with the function that delivers its outcome (once, on whatever thread ends the wait, or
/// at once on the caller's) and returns what interrupts it: the wait then delivers what it gives on its timeout (a
/// long poll's 304) at once, as a cancelled task would. The connection interrupts it to make room at its cap, and
/// when it closes.
public struct ParkedAnswer: Sendable {
    /// Hands over the outcome, once.
    public typealias Deliver = @Sendable (Result<Response, any Error>) -> Void

    /// Begins the wait; returns what interrupts it.
    public let start: @Sendable (@escaping Deliver) -> @Sendable () -> Void

    /// A wait begun by `start`.
    public init(_ start: @escaping @Sendable (@escaping Deliver) -> @Sendable () -> Void) {
        self.start = start
    }

    /// This wait with `transform` applied to the response it delivers.
    public func map(_ transform: @escaping @Sendable (Response) -> Response) -> ParkedAnswer {
        ParkedAnswer { [start] deliver in start { deliver($0.map(transform)) } }
    }

    /// This wait with an error it delivers turned into a response by `recover`.
    public func recover(_ recover: @escaping @Sendable (any Error) -> Response) -> ParkedAnswer {
        ParkedAnswer { [start] deliver in
            start { deliver(.success(Self.recovered($0, recover))) }
        }
    }

    private static func recovered(
        _ result: Result<Response, any Error>, _ recover: (any Error) -> Response
    ) -> Response {
        switch result {
        case .success(let response): response
        case .failure(let error): recover(error)
        }
    }

    /// Awaits the response on the caller's task (a caller without an event loop: tests, `Answer.response()`); the
    /// task's cancellation interrupts the wait.
    public func response() async throws -> Response {
        try await InterruptibleWait.value(start).get()
    }
}
