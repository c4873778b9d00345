import Dispatch
import Glibc

/// The only type that touches a client socket: it reads bytes into the parser, runs the actions
/// `ConnectionState` decides, bridges each request to a `Task`, and writes responses back.
///
/// Invariant: every mutable property is read and written only on `queue`. The read, write and timer
/// sources all target `queue`, and handler tasks prefer a task executor that runs them on `queue`, so the
/// code after a handler's `await` is back on it.
/// `queue` targets the global concurrent queue (TOOLS.md: this shape stayed up under slowloris).
final class Connection: @unchecked Sendable {
    /// What every connection of one server shares.
    struct Environment: Sendable {
        var responder: any HTTPResponder
        var logger: Logger
        var configuration: ServerConfiguration
        var policy: ConnectionState.Policy
        var requestIDs: RequestIDGenerator
        /// Called once, on `queue`, after the socket is closed.
        var onClose: @Sendable (Int) -> Void
    }

    /// The server-wide id of this connection.
    let id: Int
    let queue: DispatchQueue
    private let fd: Int32
    private let peer: String
    private let environment: Environment
    private let executor: QueueTaskExecutor
    private let readSource: DispatchSourceRead
    private let timer: DispatchSourceTimer
    private var writeSource: DispatchSourceWrite?
    private var writeSourceResumed = false
    private var readPaused = false
    private var armedDeadline: ConnectionState.Instant?
    private var openSources = 0
    private var isClosed = false

    private var parser: RequestParser
    private var state: ConnectionState
    private var output = OutputQueue()
    private var lingerBytesDropped = 0
    /// Bytes read (and buffered in the parser) while a response was pending; see `readable()`.
    private var bytesReadWhileBusy = 0

    /// Pipelined bytes buffered beyond this while a response is pending pause reading (backpressure).
    private static let busyReadLimit = 64 * 1024

    /// Wraps an accepted, non-blocking socket. Nothing happens until `start()`.
    init(id: Int, fd: Int32, peer: String, environment: Environment) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.environment = environment
        self.queue = DispatchQueue(label: "http.connection", target: .global())
        self.executor = QueueTaskExecutor(queue: queue)
        self.readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.timer = DispatchSource.makeTimerSource(queue: queue)
        self.parser = RequestParser(limits: environment.configuration.limits)
        self.state = ConnectionState(policy: environment.policy, now: .now)
    }

    /// Starts reading. With `rejecting`, the connection only answers that status (the connection cap's 503)
    /// and closes.
    func start(rejecting status: HTTPStatus? = nil) {
        openSources = 2
        readSource.setEventHandler { [self] in readable() }
        readSource.setCancelHandler { [self] in sourceCancelled() }
        timer.setEventHandler { [self] in timerFired() }
        timer.setCancelHandler { [self] in sourceCancelled() }
        timer.schedule(deadline: .distantFuture, leeway: .milliseconds(50))
        queue.async { [self] in
            if let status {
                perform(state.parseFailed(status: status, now: .now))
            } else {
                updateTimer()
            }
            timer.resume()
            readSource.resume()
        }
    }

    /// Graceful shutdown: close if idle, else finish the current response with `Connection: close`.
    func requestShutdown() {
        queue.async { [self] in
            guard !isClosed else { return }
            perform(state.shutdownRequested(now: .now))
        }
    }

    /// Closes the socket now, whatever is in progress (the end of the shutdown grace period).
    func forceClose() {
        queue.async { [self] in closeNow() }
    }

    // MARK: - Reading

    /// Reads what arrived. The read source stays active while a handler runs (suspending and resuming it per
    /// request wakes Dispatch's event thread every time); bytes that arrive meanwhile — pipelined requests —
    /// are buffered in the parser and parsed once the response is written, so answers stay in order.
    private func readable() {
        guard !isClosed else { return }
        switch state.phase {
        case .lingering:
            drainLingering()
            return
        case .writing(_, linger: true):
            // The parser is dead; only an error answer is going out. Drop input, note EOF.
            drainWhileAnsweringError()
            return
        default:
            break
        }
        let readSize = 16_384
        let count = withUnsafeTemporaryAllocation(byteCount: readSize, alignment: 16) { buffer in
            let count = recv(fd, buffer.baseAddress, readSize, 0)
            if count > 0 {
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            return count
        }
        if count > 0 {
            switch state.phase {
            case .responding, .writing:
                bytesReadWhileBusy += count
                if bytesReadWhileBusy > Self.busyReadLimit { pauseReading() }
            default:
                parseBuffered()
            }
        } else if count == 0 {
            // EOF stays readable forever; stop watching it before deciding.
            pauseReading()
            perform(state.peerClosed(now: .now, inputBuffered: parser.phase != .idle))
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            closeNow()
        }
    }

    private func drainWhileAnsweringError() {
        let count = withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 16) { buffer in
            recv(fd, buffer.baseAddress, buffer.count, 0)
        }
        if count == 0 {
            pauseReading()
            perform(state.peerClosed(now: .now))
        } else if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            closeNow()
        }
    }

    /// Runs the parser over buffered bytes until it needs more, hands over a request, or fails.
    private func parseBuffered() {
        bytesReadWhileBusy = 0
        while !isClosed {
            let event: RequestParser.Event
            do {
                event = try parser.next()
            } catch {
                perform(state.parseFailed(status: error.status, now: .now))
                return
            }
            switch event {
            case .needMoreData:
                perform(state.needMoreData(parserPhase: parser.phase, now: .now))
                resumeReading()
                return
            case .continueExpected(let head):
                let action = state.continueExpected(now: .now)
                // RFC 9110 §10.1.1: an HTTP/1.0 client never waits for 100 Continue, and must not get one.
                if action == .writeContinue && head.version != .http1_0 {
                    output.append(ResponseHead.continueBytes)
                    flush()
                }
            case .request(let request):
                let action = state.requestReceived(keepAlive: ConnectionState.wantsKeepAlive(request.head), now: .now)
                if case .dispatch = action { dispatch(request) }
                return
            }
        }
    }

    /// Lingering close: read and drop whatever the client still sends, up to a bound, until EOF or timeout.
    private func drainLingering() {
        let count = withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 16) { buffer in
            recv(fd, buffer.baseAddress, buffer.count, 0)
        }
        if count > 0 {
            lingerBytesDropped += count
            if lingerBytesDropped > 256 * 1024 { closeNow() }
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            closeNow()
        }
    }

    private func pauseReading() {
        guard !readPaused else { return }
        readPaused = true
        readSource.suspend()
    }

    private func resumeReading() {
        guard readPaused, !isClosed else { return }
        readPaused = false
        readSource.resume()
    }

    // MARK: - Handing requests to handlers

    private func dispatch(_ request: Request) {
        let started = ContinuousClock.now
        let requestID = environment.requestIDs.next()
        let context = RequestContext(
            requestID: requestID, logger: environment.logger.with(["request.id": requestID]), remoteAddress: peer)
        let responder = environment.responder
        Task(executorPreference: executor) {
            let response = await ErrorResponse.respond(responder, to: request, context: context)
            // Back on `queue`: this task prefers the connection's executor, whose jobs run there.
            self.write(response, for: request, requestID: requestID, started: started)
        }
    }

    private func write(_ response: Response, for request: Request, requestID: String, started: ContinuousClock.Instant)
    {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(queue))  // the invariant the executor preference provides
        #endif
        guard !isClosed, case .writeResponse(let close) = state.responseReady(now: .now) else { return }
        var response = response
        let keepAliveHTTP10 = !close && request.version == .http1_0
        let head: [UInt8]
        do {
            head = try ResponseHead.serialize(
                response, bodyLength: response.body.count, close: close, keepAliveHTTP10: keepAliveHTTP10,
                date: DateCache.shared.current())
        } catch {
            environment.logger.error("invalid response", ["error": error.description, "request.id": requestID])
            response = ErrorResponse.protocolError(.internalServerError)
            head = Self.serializeOrDie(response, close: close, keepAliveHTTP10: keepAliveHTTP10)
        }
        output.append(head)
        // HEAD gets the GET head without the body (RFC 9110 §9.3.2); 1xx/204/304 never carry one.
        let sendsBody = request.method != .head && response.status.allowsBody && !response.body.isEmpty
        if sendsBody { output.append(response.body) }
        AccessLog.request(
            request, status: response.status, bodyBytes: sendsBody ? response.body.count : 0, requestID: requestID,
            started: started, logger: environment.logger)
        flush()
    }

    // MARK: - Writing

    /// Writes as much pending output as the socket takes; on EAGAIN waits for a write source.
    private func flush() {
        while !output.isEmpty {
            let written = output.send(to: fd)
            if written > 0 {
                if !output.isEmpty { state.writeProgressed(now: .now) }
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                state.writeBlocked(now: .now)
                waitForWritable()
                updateTimer()
                return
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                closeNow()  // EPIPE / ECONNRESET: the client is gone.
                return
            }
        }
        if writeSourceResumed {
            writeSourceResumed = false
            writeSource?.suspend()
        }
        perform(state.writeFlushed(now: .now))
    }

    private func waitForWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in
                guard !isClosed else { return }
                flush()
            }
            source.setCancelHandler { [self] in sourceCancelled() }
            openSources += 1
            writeSource = source
        }
        if !writeSourceResumed {
            writeSourceResumed = true
            writeSource?.resume()
        }
    }

    // MARK: - Actions, timers, closing

    private func perform(_ action: ConnectionState.Action) {
        switch action {
        case .none, .dispatch, .writeResponse:
            // Dispatch and response writing carry data and are run where the data is.
            break
        case .writeContinue:
            output.append(ResponseHead.continueBytes)
            flush()
        case .writeError(let status):
            AccessLog.refused(status: status, peer: peer, logger: environment.logger)
            let head = Self.serializeOrDie(ErrorResponse.protocolError(status), close: true, keepAliveHTTP10: false)
            output.append(head)
            output.append(Array(status.reason.utf8))
            flush()
        case .parseBuffered:
            parseBuffered()
        case .startLingering:
            shutdown(fd, Int32(SHUT_WR))
            resumeReading()
        case .close:
            closeNow()
        }
        updateTimer()
    }

    private func timerFired() {
        armedDeadline = nil
        guard !isClosed else { return }
        perform(state.timerFired(now: .now))
    }

    /// Arms the timer for the state's next deadline. It is only re-armed when the deadline moves earlier:
    /// a deadline that moved later makes the timer fire early, find nothing due, and re-arm once.
    private func updateTimer() {
        guard !isClosed, let deadline = state.nextDeadline else { return }
        if let armed = armedDeadline, armed <= deadline { return }
        armedDeadline = deadline
        let delay = max(.zero, deadline - .now)
        timer.schedule(deadline: .now() + delay.dispatchInterval, leeway: .milliseconds(20))
    }

    private func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        state.closed()
        output.removeAll()
        // A suspended or never-resumed source never runs its cancel handler, and the fd is closed there.
        if readPaused {
            readPaused = false
            readSource.resume()
        }
        readSource.cancel()
        timer.cancel()
        if let writeSource {
            if !writeSourceResumed {
                writeSourceResumed = true
                writeSource.resume()
            }
            writeSource.cancel()
        }
    }

    /// The fd is closed only after every source watching it is cancelled, so no source sees a reused fd.
    private func sourceCancelled() {
        openSources -= 1
        guard openSources == 0 else { return }
        close(fd)
        environment.onClose(id)
    }

    // MARK: - Helpers

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
