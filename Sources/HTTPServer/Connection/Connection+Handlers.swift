/// Handing requests to handlers: one task per connection takes each request in turn, awaits its handler, and
/// hands the answer back to the state machine on the loop thread.
extension Connection {
    /// A request on its way to the handler, with what the answer and the access log need.
    struct Dispatched {
        /// The request as parsed.
        var request: Request
        /// Its id, logger and peer address.
        var context: RequestContext
        /// When it arrived, for the access log's duration.
        var started: ContinuousClock.Instant
    }

    /// Carries out `.dispatch`: gives `request` to the waiting worker, or starts one.
    func dispatch(_ request: Request) {
        let requestID = environment.requestIDs.next()
        let context = RequestContext(
            requestID: requestID, logger: environment.logger.with("request.id", requestID), peer: client,
            activity: activity)
        // The event round's time: the request arrived in it, and it saves a clock read.
        let dispatched = Dispatched(request: request, context: context, started: loop.now)
        // A warm page is answered here, on the loop, without a task hop (issue 21); the answer is written at the
        // end of this event (`answerImmediately`), not from inside the parse that found the request.
        if let response = ErrorResponse.respondAtOnce(environment.responder, to: request, context: context) {
            immediateAnswer = (response, dispatched)
            return
        }
        if let waiter = requestWaiter {
            requestWaiter = nil
            waiter.resume(returning: dispatched)
            return
        }
        pendingRequest = dispatched
        if worker == nil { startWorker() }
    }

    /// One task per connection answers its requests in turn: resuming a waiting task costs less than
    /// creating one per request (no task allocation, no executor-preference record pushed and popped under
    /// the task's status lock). It prefers the loop as its executor, so it runs on the loop thread.
    private func startWorker() {
        let responder = environment.responder
        worker = Task(executorPreference: loop) { [self] in
            while let next = await nextRequest() {
                let response = await ErrorResponse.respond(responder, to: next.request, context: next.context)
                answerReady(response, to: next)
            }
        }
    }

    /// The next request for the worker, or nil once the connection is closed. Runs on the loop thread.
    private func nextRequest() async -> Dispatched? {
        if let pending = pendingRequest {
            pendingRequest = nil
            return pending
        }
        if isClosed { return nil }
        return await withUnsafeContinuation { requestWaiter = $0 }
    }

    /// The handler answered `dispatched`: an entry point, on the loop thread. The state decides whether the
    /// answer is written and whether it is the last one; a closed connection drops it.
    private func answerReady(_ response: Response, to dispatched: Dispatched) {
        assert(loop.inLoop, "the invariant the executor preference provides")
        deliver(response, to: dispatched)
        eventHandled()
    }

    /// Writes the answers given at once, in a loop rather than nested: writing one parses the next pipelined
    /// request, which may be answered at once in turn. Called at the end of every event (`eventHandled`).
    func answerImmediately() {
        while let (response, dispatched) = immediateAnswer {
            immediateAnswer = nil
            deliver(response, to: dispatched)
        }
    }

    private func deliver(_ response: Response, to dispatched: Dispatched) {
        guard !isClosed else { return }
        perform(state.responseReady(now: loop.now), with: .response(response, answering: dispatched))
    }
}
