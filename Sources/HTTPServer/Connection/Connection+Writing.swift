import Glibc
import HTTPCore

/// Writing: serializing answers into the output queue, and sending it at the end of the loop's round.
extension Connection {
    /// Carries out `.writeResponse`: logs the request and queues the handler's answer, saying `Connection: close`
    /// when `close`; the loop sends it at the end of its round.
    func writeResponse(_ response: Response, answering dispatched: Dispatched, close: Bool) {
        let request = dispatched.request
        let requestID = dispatched.id
        // An HTTP/1.0 client keeps the connection only if the answer says so (RFC 9112 §9.3).
        let keepAliveHTTP10 = !close && request.version == .http1_0
        let date = loop.dateTexts
        let fieldLines = loop.preparedFields.lines(for: response.headers)
        var answer = response
        var head: [UInt8]
        do {
            // The output queue keeps the head until the end of the round.
            head = try ResponseHead.serialize(
                response, bodyLength: response.body.count, close: close, keepAliveHTTP10: keepAliveHTTP10,
                date: date.httpDate, fieldLines: fieldLines, scratch: loop.headScratch)
        } catch {
            environment.logger.error("invalid response", ["error": error.description, "request.id": requestID.text])
            answer = ErrorResponse.protocolError(.internalServerError)
            head = Self.serializeOrDie(answer, close: close, keepAliveHTTP10: keepAliveHTTP10)
        }
        // HEAD gets the GET head without the body (RFC 9110 §9.3.2); 1xx/204/304 never carry one.
        let sendsBody = request.method != .head && answer.status.allowsBody && !answer.body.isEmpty
        let body = sendsBody ? answer.body : []
        AccessLog.request(
            request, status: answer.status, bodyBytes: body.count, requestID: requestID.text,
            started: dispatched.started, now: loop.now, logger: environment.logger, timestamp: date.timestamp,
            client: clientText, summer: environment.accessLog)
        output.append(head)
        output.append(body)
        flushAtEndOfRound()
    }

    /// Carries out `.writeError`: queues the canned answer for `status`, with `Connection: close`, for the end of the
    /// round.
    func writeError(_ status: HTTPStatus) {
        let head = Self.serializeOrDie(ErrorResponse.protocolError(status), close: true, keepAliveHTTP10: false)
        output.append(head)
        output.append(Array(status.reason.utf8))
        flushAtEndOfRound()
    }

    /// Carries out `.writeContinue`: the interim `100 Continue` that lets the client send its body.
    func writeContinue() {
        output.append(ResponseHead.continueBytes)
        flushAtEndOfRound()
    }

    /// Has the loop send the output at the end of its round (`EventLoop.flushAtEndOfRound`), once however often
    /// it is asked. Every answer a round gives goes out after the round's last event: a peer woken by its answer
    /// then finds the loop waiting, instead of taking the core from it in the middle of the round. With wrk's
    /// threads on the same 2 cores, sending each answer at once cost about 8 000 involuntary context switches per
    /// second per loop, a quarter fewer requests per second, and a p99 twice nginx's (issue 21; the figures are in
    /// `docs/ARCHITECTURE.md`).
    func flushAtEndOfRound() {
        guard !flushScheduled, !isClosed else { return }
        flushScheduled = true
        loop.flushAtEndOfRound(self)
    }

    /// The loop's round is over: send what is queued, then finish the event as every entry point does.
    func roundEnded() {
        flushScheduled = false
        flush()
        eventHandled()
    }

    /// Writes as much pending output as the socket takes, usually all of it in one `sendmsg`; on EAGAIN the
    /// next EPOLLOUT edge resumes it. Once all is written, the state says what comes next.
    func flush() {
        guard !isClosed else { return }
        while !output.isEmpty {
            let written = output.send(to: fd)
            if written > 0 {
                if !output.isEmpty { state.writeProgressed(bytes: written, now: loop.now) }
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                state.writeBlocked(now: loop.now)
                waitingForWritable = true
                return
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                closeNow()  // EPIPE / ECONNRESET: the client is gone.
                return
            }
        }
        waitingForWritable = false
        perform(state.writeFlushed(now: loop.now))
    }

    // MARK: - Helpers

    /// Serializes one of our canned responses, whose constant fields cannot be invalid.
    private static func serializeOrDie(_ response: Response, close: Bool, keepAliveHTTP10: Bool) -> [UInt8] {
        do {
            return try ResponseHead.serialize(
                response, bodyLength: response.body.count, close: close, keepAliveHTTP10: keepAliveHTTP10,
                date: DateCache.shared.current())
        } catch {
            // Our own canned responses have constant, valid fields.
            preconditionFailure("canned response failed to serialize: \(error)")
        }
    }
}
