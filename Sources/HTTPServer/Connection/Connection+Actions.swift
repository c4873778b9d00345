import Glibc

/// Carrying out what `ConnectionState` decided, and closing.
extension Connection {
    /// The data an action needs that the state machine does not hold.
    enum ActionInput {
        /// The action needs nothing more.
        case none
        /// The request `.dispatch` hands to the handler.
        case request(Request)
        /// The request `.dispatch` answers from the loop's memo, with its kept answer.
        case known(AnswerMemo.Entry)
        /// The handler's answer that `.writeResponse` writes, and the request it answers.
        case response(Response, answering: Dispatched)
    }

    /// Carries out `action`: the one place where every `ConnectionState.Action` is run. `input` carries the
    /// request for `.dispatch` and the answer for `.writeResponse`; the events that return those pass it.
    func perform(_ action: ConnectionState.Action, with input: ActionInput = .none) {
        switch action {
        case .none:
            break
        case .dispatch:
            switch input {
            case .request(let request): dispatch(request)
            case .known(let entry): answerAgain(entry)
            case .none, .response: missingInput(for: action)
            }
        case .writeContinue:
            writeContinue()
        case .writeResponse(let close):
            guard case .response(let response, let dispatched) = input else { return missingInput(for: action) }
            if close { announceLastAnswer() }
            writeResponse(response, answering: dispatched, close: close)
        case .writeError(let status):
            announceLastAnswer()
            AccessLog.refused(status: status, peer: peer, logger: environment.logger)
            writeError(status)
        case .parseBuffered:
            nextRequestWhenFair()
        case .startLingering:
            shutdown(fd, Int32(SHUT_WR))
            // Input may have arrived (or ended) while nothing was read; the edge for it has passed.
            readReady = true
            readWhileWanted()
        case .close:
            closeNow()
        case .interruptHandler:
            // The worker answers this request (a parked poll returns its 304), then finds the connection closing; a
            // wait without a task is told to deliver that answer now.
            worker?.cancel()
            parkedWait?()
        }
    }

    /// Carries out `.parseBuffered`, the next request after an answer. When one may be waiting already (pipelined
    /// bytes in the parser or in the kernel), it is taken on the loop's next run of queued work rather than now:
    /// every other connection with work queued gets its turn first, so one peer's pipeline cannot hold the loop
    /// for a round of many answers (issue 23: a page waited seconds behind 1 024 pipelines). A connection that
    /// finds nothing waits for its peer, which starts its pipelining count again.
    private func nextRequestWhenFair() {
        guard parser.hasBufferedBytes || readReady else {
            parser.releaseBufferWhenEmpty()
            return state.waitingForPeer()
        }
        loop.execute { [self] in
            guard !isClosed, case .idle = state.phase else { return }
            parseBuffered()
            readWhileWanted()
            switch state.phase {
            case .idle, .readingHead, .readingBody: state.waitingForPeer()
            default: break
            }
            eventHandled()
        }
    }

    /// Closes the socket now: on `.close`, and on an I/O error or a forced close, which need no decision.
    func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        state.closed()
        output.removeAll()
        deregister()
        standingBox.withLock { $0 = .busy }
        environment.onClose(id)
        close(fd)
        // A busy worker ends after its handler returns (its answer is dropped); a parked wait ends now, giving its
        // place back (its answer is dropped too).
        pendingRequest = nil
        immediateAnswer = nil
        if let wait = parkedWait {
            parkedWait = nil
            wait()
        }
    }

    /// Tells the server, once, that the answer about to go out is the connection's last.
    private func announceLastAnswer() {
        guard !lastAnswerAnnounced else { return }
        lastAnswerAnnounced = true
        environment.onLastAnswer(id)
    }

    /// Only `requestReceived` returns `.dispatch` and only `responseReady` returns `.writeResponse`, and their
    /// callers pass the input; a caller that does not is a bug, and costs this connection rather than the server.
    private func missingInput(for action: ConnectionState.Action) {
        assertionFailure("\(action) performed without its input")
        closeNow()
    }
}
