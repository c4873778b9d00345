import Timing

/// Handing requests to handlers: a task per connection while it has requests to answer takes each in turn, awaits
/// its handler, and hands the answer back to the state machine on the loop thread; it ends when none is waiting.
extension Connection {
    /// A request on its way to the handler, with what the answer and the access log need.
    struct Dispatched {
        /// The request as parsed.
        var request: Request
        /// Its id (the handler's context has it spelled out).
        var id: RequestIDGenerator.ID
        /// When it arrived, for the access log's duration.
        var started: MonotonicInstant
    }

    /// Carries out `.dispatch`: gives `request` to the running worker, or starts one.
    func dispatch(_ request: Request) {
        accountForwardedClient(of: request)
        let id = environment.requestIDs.nextID()
        let context = RequestContext(
            requestID: id.text, base: environment.contextLogger, peer: client, activity: activity)
        // The event round's time: the request arrived in it, and it saves a clock read.
        let dispatched = Dispatched(request: request, id: id, started: loop.now)
        // Read before the responder is asked, so an answer made from newer data is never kept under an older epoch.
        let epoch = environment.answerEpoch?.current()
        // A warm page is answered here, on the loop, without a task hop (issue 21); the answer is written at the
        // end of this event (`answerImmediately`), not from inside the parse that found the request.
        // The responder answers once (`Answer`); work left for later carries what it decided to the worker task.
        switch ErrorResponse.answer(environment.responder, to: request, context: context) {
        case .now(let response):
            // Kept by the head's bytes, which the parser still holds: the same bytes again get it without a parse.
            if let epoch, response.isReusable, let head = parser.lastHead {
                answers.memo.keep(response, for: request, head: head, from: client, in: epoch)
            }
            immediateAnswer = (response, dispatched)
        case .later(let work):
            pendingRequest = (dispatched, context, work)
            if worker == nil { startWorker() }
        case .parked(let parked):
            park(parked, dispatched, context)
        }
    }

    /// Carries out `.dispatch` for an answer that waits holding no task (`Answer.parked`): the answer comes back to
    /// this loop when the wait ends, behind the sockets' events when thousands end at once (a deferrable closure).
    private func park(_ parked: ParkedAnswer, _ dispatched: Dispatched, _ context: RequestContext) {
        let wait = parked.start { [self] result in
            let response: Response
            switch result {
            case .success(let given): response = given
            case .failure(let error): response = ErrorResponse.response(for: error, logger: context.logger)
            }
            loop.execute(deferrable: true) { [self] in
                parkedWait = nil
                answerReady(response, to: dispatched)
            }
        }
        // An answer delivered at once is queued behind this: the wait is only stored while it may still run.
        parkedWait = wait
    }

    /// Carries out `.dispatch` for a request the loop's memo knows: its kept answer, without the responder (the
    /// same request again from the same peer, and nothing it depends on moved).
    func answerAgain(_ entry: AnswerMemo.Entry) {
        let dispatched = Dispatched(request: entry.request, id: environment.requestIDs.nextID(), started: loop.now)
        immediateAnswer = (entry.response, dispatched)
    }

    /// This server's answer memo on this connection's loop (there is one only with an `AnswerEpoch`).
    var answers: AnswerMemo.PerLoop { environment.answerMemos[loop.index] }

    /// A task answers the connection's requests while they come one after another (pipelined), and ends when none
    /// is waiting: an idle connection holds no task. A task that stayed alive between requests kept the async frames
    /// its deepest handler needed (the router, the middleware, the page: six 1 KiB slabs of the task allocator,
    /// which keeps them until the task ends) plus the task itself, about 6.3 KiB per idle keep-alive connection
    /// measured with heaptrack (issue 21: 1 000 idle connections cost 8 MB); starting one per request costs a task
    /// allocation, and answers given at once on the loop start none. It prefers the loop as its executor, so it
    /// runs on the loop thread, where `pendingRequest` and `worker` are read and written without a lock.
    private func startWorker() {
        worker = Task(executorPreference: loop) { [self] in
            while let (next, context, work) = takeRequest() {
                let response = await ErrorResponse.respond(work, context: context)
                answerReady(response, to: next)
            }
            worker = nil
        }
    }

    /// The next request for the worker, or nil when none is waiting (the worker then ends). Runs on the loop thread.
    private func takeRequest() -> (Dispatched, RequestContext, @Sendable () async throws -> Response)? {
        assert(loop.inLoop, "the invariant the executor preference provides")
        defer { pendingRequest = nil }
        return pendingRequest
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
        perform(
            state.responseReady(bodyBytes: response.body.count, now: loop.now),
            with: .response(response, answering: dispatched))
    }
}
