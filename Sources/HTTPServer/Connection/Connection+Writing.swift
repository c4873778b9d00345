import Glibc
import HTTPCore

/// Writing: serializing answers and sending them, straight from the stack when the socket takes them whole and
/// through the output queue when it does not.
extension Connection {
    /// Carries out `.writeResponse`: logs the request and sends the handler's answer, saying `Connection: close`
    /// when `close`.
    func writeResponse(_ response: Response, answering dispatched: Dispatched, close: Bool) {
        let request = dispatched.request
        let requestID = dispatched.id
        // An HTTP/1.0 client keeps the connection only if the answer says so (RFC 9112 §9.3).
        let keepAliveHTTP10 = !close && request.version == .http1_0
        let date = loop.dateTexts
        let bound = ResponseHead.bound(response, dateCount: date.httpDate.count)
        let fieldLines = loop.preparedFields.lines(for: response.headers)
        // The head is built on the stack and sent with the body in one `sendmsg`; only what the socket does
        // not take is copied into the output queue.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            do throws(ResponseHead.InvalidField) {
                let count = try ResponseHead.write(
                    response, bodyLength: response.body.count, close: close, keepAliveHTTP10: keepAliveHTTP10,
                    date: date.httpDate, fieldLines: fieldLines, into: buffer)
                answer(
                    response, head: UnsafeBufferPointer(rebasing: buffer[0..<count]), for: request,
                    requestID: requestID, started: dispatched.started, timestamp: date.timestamp)
            } catch {
                environment.logger.error(
                    "invalid response", ["error": error.description, "request.id": requestID.text])
                let replacement = ErrorResponse.protocolError(.internalServerError)
                let head = Self.serializeOrDie(replacement, close: close, keepAliveHTTP10: keepAliveHTTP10)
                head.withUnsafeBufferPointer { head in
                    answer(
                        replacement, head: head, for: request, requestID: requestID, started: dispatched.started,
                        timestamp: date.timestamp)
                }
            }
        }
        flush()
    }

    /// Carries out `.writeError`: queues the canned answer for `status`, with `Connection: close`, and flushes it.
    func writeError(_ status: HTTPStatus) {
        let head = Self.serializeOrDie(ErrorResponse.protocolError(status), close: true, keepAliveHTTP10: false)
        output.append(head)
        output.append(Array(status.reason.utf8))
        flush()
    }

    /// Carries out `.writeContinue`: the interim `100 Continue` that lets the client send its body.
    func writeContinue() {
        output.append(ResponseHead.continueBytes)
        flush()
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

    /// Logs the request and sends `head` with the body the request gets.
    private func answer(
        _ response: Response, head: UnsafeBufferPointer<UInt8>, for request: Request, requestID: RequestIDGenerator.ID,
        started: ContinuousClock.Instant, timestamp: String
    ) {
        // HEAD gets the GET head without the body (RFC 9110 §9.3.2); 1xx/204/304 never carry one.
        let sendsBody = request.method != .head && response.status.allowsBody && !response.body.isEmpty
        let body = sendsBody ? response.body : []
        AccessLog.request(
            request, status: response.status, bodyBytes: body.count, requestID: requestID.text, started: started,
            now: loop.now, logger: environment.logger, timestamp: timestamp, client: clientText,
            summer: environment.accessLog)
        send(head: head, body: body)
    }

    /// Sends a response straight from `head` and `body` when nothing else is queued; queues what is left.
    private func send(head: UnsafeBufferPointer<UInt8>, body: [UInt8]) {
        guard output.isEmpty else {
            output.append(Array(head))
            output.append(body)
            return
        }
        let written = body.withUnsafeBytes { body in
            OutputQueue.sendmsg(fd, UnsafeRawPointer(head.baseAddress!), head.count, body.baseAddress, body.count)
        }
        if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            closeNow()  // EPIPE / ECONNRESET: the client is gone.
            return
        }
        let sent = max(0, written)
        if sent < head.count {
            output.append(Array(head[sent...]))
            output.append(body)
        } else {
            output.append(body, from: sent - head.count)
        }
        // `flush()` carries on from here: it writes the rest or waits for EPOLLOUT, then moves the state on.
    }

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
