import CLinux
import Glibc
import HTTPCore
import Synchronization

/// The only type that touches a client socket: it reads bytes into the parser, runs the actions
/// `ConnectionState` decides, hands each request to its handler task, and writes responses back.
///
/// Each connection lives on one `EventLoop` thread, which watches its socket with edge-triggered epoll and
/// keeps its deadline. Invariant: every mutable property is read and written only on that loop's thread;
/// other threads reach it through `loop.execute`, and handler tasks prefer the loop as their executor, so
/// the code after a handler's `await` is back on it.
///
/// Why an epoll loop and not the Dispatch design the server started with (one read source and one serial
/// queue per connection, which survived slowloris where a blocking thread per connection did not): measured
/// with `Benchmarks/http.sh` (20 KB page, 64 connections, 2 cores), that design spent ~16 µs of CPU per request against nginx's ~8 µs, two thirds
/// of it in the kernel: libdispatch re-arms a read source after each event through its manager thread, which
/// cost 2 `epoll_ctl`, an `ioctl`, an eventfd `write` and ~1.7 context switches per request (perf: 35% of
/// samples in `finish_task_switch`), more than nginx's whole request. Here a request costs one `recv`, one
/// `sendmsg` and a share of an `epoll_wait` (2.1-2.3 syscalls and ~0.3 context switches per request), and
/// 11-14 µs of CPU with the access log on; http.sh went from 0.37 to about 1.0 × nginx at 64 connections.
/// What made the Dispatch design slowloris-proof is kept: sockets are non-blocking, no thread ever waits on
/// one client, and every phase has a deadline (slowhttptest -c 1000 -H: probes still answered in < 6 ms).
final class Connection: @unchecked Sendable {
    /// What every connection of one server shares.
    struct Environment: Sendable {
        var responder: any HTTPResponder
        var logger: Logger
        var configuration: ServerConfiguration
        var policy: ConnectionState.Policy
        var requestIDs: RequestIDGenerator
        /// Called once, on the loop thread, as the socket closes: just before `close(2)`, so a client that sees
        /// the close and reconnects at once finds its slot (and its per-address count) already free.
        var onClose: @Sendable (Int) -> Void
        /// Called once, on the loop thread, just before the connection's last answer (one that says
        /// `Connection: close`) is sent: a client that reconnects as soon as it reads that answer must find its
        /// slot free, before the socket is even closed (wrk does, every 1 000 requests).
        var onLastAnswer: @Sendable (Int) -> Void = { _ in }
    }

    /// The server-wide id of this connection.
    let id: Int
    /// The loop whose thread owns this connection.
    let loop: EventLoop
    private let fd: Int32
    private let peer: String
    private let environment: Environment
    /// The loop's token for this connection (set once registered).
    private var slot = -1
    private var generation: UInt32 = 0
    private var isClosed = false
    /// Edge-triggered epoll reports new input once: until a read comes back short, empty or EAGAIN, more may
    /// be waiting in the kernel (also while a handler runs and reading is deliberately left for later).
    private var readReady = false
    /// The peer shut down its side (EPOLLRDHUP/HUP): read on to the EOF even after a short read.
    private var peerHungUp = false
    /// Output hit EAGAIN; the next EPOLLOUT edge resumes it.
    private var waitingForWritable = false
    private var armedDeadline: ConnectionState.Instant?
    /// The handler task (see `startWorker`), the request it has not taken yet, and its continuation while
    /// it waits for one.
    private var worker: Task<Void, Never>?
    private var pendingRequest: Dispatched?
    private var requestWaiter: UnsafeContinuation<Dispatched?, Never>?

    private var parser: RequestParser
    private var state: ConnectionState
    private var output = OutputQueue()
    private var lingerBytesDropped = 0
    /// Whether `onLastAnswer` has run.
    private var lastAnswerAnnounced = false
    /// `state.standing` as last published to `standing`, so the lock is taken only when it changes.
    private var publishedStanding: ConnectionState.Standing
    /// What the server reads when it must choose a connection to close at the cap; written on the loop thread at
    /// the end of each event, read by the accept thread.
    private let standingBox: Mutex<ConnectionState.Standing>

    /// Wraps an accepted, non-blocking socket. Nothing happens until `start()`.
    init(id: Int, fd: Int32, peer: String, loop: EventLoop, environment: Environment) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.loop = loop
        self.environment = environment
        self.parser = RequestParser(limits: environment.configuration.limits)
        let state = ConnectionState(policy: environment.policy, now: ContinuousClock.now)
        self.state = state
        self.publishedStanding = state.standing
        self.standingBox = Mutex(state.standing)
    }

    /// The connection's standing as of its last event (see `ConnectionState.Standing`); any thread.
    var standing: ConnectionState.Standing { standingBox.withLock { $0 } }

    /// Starts watching the socket on the loop thread. With `rejecting`, the connection only answers that
    /// status (the connection cap's 503) and closes.
    func start(rejecting status: HTTPStatus? = nil) {
        loop.execute { [self] in
            // A shutdown that raced the admission may have closed it already; its fd number may belong to
            // someone else by now, so it must not be registered or closed again.
            guard !isClosed else { return }
            guard let token = loop.register(self, fd: fd) else {
                environment.logger.error("cannot watch connection", ["errno": "\(errno)", "net.peer": peer])
                isClosed = true
                close(fd)
                environment.onClose(id)
                return
            }
            (slot, generation) = token
            if let status { perform(state.parseFailed(status: status, now: loop.now)) }
            eventHandled()
        }
    }

    /// Graceful shutdown: close if idle, else finish the current response with `Connection: close`.
    func requestShutdown() {
        loop.execute { [self] in
            guard !isClosed else { return }
            perform(state.shutdownRequested(now: loop.now))
            eventHandled()
        }
    }

    /// The server chose this connection to make room at the cap: it closes unless a request became busy in the
    /// meantime, in which case `refused` runs (on the loop thread) and the connection carries on.
    func evict(refused: @escaping @Sendable () -> Void) {
        loop.execute { [self] in
            guard !isClosed else { return }
            if state.evictionRequested(now: loop.now) == .close {
                closeNow()
            } else {
                refused()
            }
        }
    }

    /// Closes the socket now, whatever is in progress (the end of the shutdown grace period).
    func forceClose() {
        loop.execute { [self] in closeNow() }
    }

    // MARK: - Events from the loop

    /// epoll reported `events` for the socket.
    func handle(events: UInt32) {
        let hangUp = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        if events & hangUp != 0 { peerHungUp = true }
        if events & (EPOLLIN.rawValue | hangUp) != 0 { readReady = true }
        if waitingForWritable && events & (EPOLLOUT.rawValue | hangUp) != 0 { flush() }
        readWhileWanted()
        eventHandled()
    }

    /// The loop's timer for `deadline` came due.
    func timerFired(deadline: ConnectionState.Instant) {
        // An entry for a deadline that was replaced by an earlier one; that one has fired already.
        guard !isClosed, deadline == armedDeadline else { return }
        armedDeadline = nil
        perform(state.timerFired(now: loop.now))
        eventHandled()
    }

    // MARK: - Reading

    /// Reads while input may be waiting and the phase wants it. While a handler runs or a response is being
    /// written, nothing is read: pipelined requests and a FIN wait in the kernel and are read once the answer
    /// is out, so answers stay in order and the socket buffer is the backpressure.
    private func readWhileWanted() {
        while readReady && !isClosed {
            switch state.phase {
            case .lingering:
                drainLingering()
            case .writing(_, linger: true):
                // The parser is dead; only an error answer is going out. Drop input (so a client blocked on
                // sending can read our answer), note EOF.
                drainWhileAnsweringError()
            case .responding, .writing, .closed:
                return
            case .idle, .readingHead, .readingBody:
                readIntoParser()
            }
        }
    }

    /// What one `recv` gave.
    private enum ReadResult {
        case bytes(Int)
        case endOfStream
        case wouldBlock
        case failed
    }

    /// One `recv` into the loop's read buffer, handed to `body`. A short read means the kernel buffer is empty (the next
    /// arrival is a new edge), so a whole request costs one read and no EAGAIN.
    private func receive(_ body: (UnsafeRawBufferPointer) -> Void) -> ReadResult {
        let buffer = loop.readBuffer
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 {
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if count < buffer.count && !peerHungUp { readReady = false }
            return .bytes(count)
        }
        if count == 0 {
            readReady = false
            return .endOfStream
        }
        switch errno {
        case EINTR: return .bytes(0)
        case EAGAIN, EWOULDBLOCK:
            readReady = false
            return .wouldBlock
        default: return .failed
        }
    }

    private func readIntoParser() {
        switch receive({ parser.append($0) }) {
        case .bytes(let count): if count > 0 { parseBuffered() }
        case .endOfStream: perform(state.peerClosed(now: loop.now))
        case .wouldBlock: break
        case .failed: closeNow()
        }
    }

    private func drainWhileAnsweringError() {
        switch receive({ _ in }) {
        case .bytes, .wouldBlock: break
        case .endOfStream: perform(state.peerClosed(now: loop.now))
        case .failed: closeNow()
        }
    }

    /// Lingering close: read and drop whatever the client still sends, up to a bound, until EOF or timeout.
    private func drainLingering() {
        switch receive({ _ in }) {
        case .bytes(let count):
            lingerBytesDropped += count
            if lingerBytesDropped > 256 * 1024 { closeNow() }
        case .wouldBlock: break
        case .endOfStream, .failed: closeNow()
        }
    }

    /// Runs the parser over buffered bytes until it needs more, hands over a request, or fails.
    private func parseBuffered() {
        while !isClosed {
            let event: RequestParser.Event
            do {
                event = try parser.next()
            } catch {
                perform(state.parseFailed(status: error.status, now: loop.now))
                return
            }
            switch event {
            case .needMoreData:
                perform(state.needMoreData(parserPhase: parser.phase, progress: parser.progress, now: loop.now))
                return
            case .continueExpected(let head):
                let action = state.continueExpected(now: loop.now)
                // RFC 9110 §10.1.1: an HTTP/1.0 client never waits for 100 Continue, and must not get one.
                if action == .writeContinue && head.version != .http1_0 {
                    output.append(ResponseHead.continueBytes)
                    flush()
                }
            case .request(let request):
                let action = state.requestReceived(
                    keepAlive: ConnectionState.wantsKeepAlive(request.head), now: loop.now)
                if case .dispatch = action { dispatch(request) }
                return
            }
        }
    }

    // MARK: - Handing requests to handlers

    /// A request on its way to the handler, with what the answer and the access log need.
    private struct Dispatched {
        var request: Request
        var context: RequestContext
        var started: ContinuousClock.Instant
    }

    private func dispatch(_ request: Request) {
        let requestID = environment.requestIDs.next()
        let context = RequestContext(
            requestID: requestID, logger: environment.logger.with("request.id", requestID), remoteAddress: peer)
        // The event round's time: the request arrived in it, and it saves a clock read.
        let dispatched = Dispatched(request: request, context: context, started: loop.now)
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
                write(response, for: next.request, requestID: next.context.requestID, started: next.started)
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

    private func write(_ response: Response, for request: Request, requestID: String, started: ContinuousClock.Instant)
    {
        assert(loop.inLoop, "the invariant the executor preference provides")
        guard !isClosed, case .writeResponse(let close) = state.responseReady(now: loop.now) else { return }
        if close { announceLastAnswer() }
        let keepAliveHTTP10 = !close && request.version == .http1_0
        let date = loop.dateTexts
        let bound = ResponseHead.bound(response, dateCount: date.httpDate.count)
        // The head is built on the stack and sent with the body in one `sendmsg`; only what the socket does
        // not take is copied into the output queue.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            do throws(ResponseHead.InvalidField) {
                let count = try ResponseHead.write(
                    response, bodyLength: response.body.count, close: close, keepAliveHTTP10: keepAliveHTTP10,
                    date: date.httpDate, into: buffer)
                answer(
                    response, head: UnsafeBufferPointer(rebasing: buffer[0..<count]), for: request,
                    requestID: requestID, started: started, timestamp: date.timestamp)
            } catch {
                environment.logger.error("invalid response", ["error": error.description, "request.id": requestID])
                let replacement = ErrorResponse.protocolError(.internalServerError)
                let head = Self.serializeOrDie(replacement, close: close, keepAliveHTTP10: keepAliveHTTP10)
                head.withUnsafeBufferPointer { head in
                    answer(
                        replacement, head: head, for: request, requestID: requestID, started: started,
                        timestamp: date.timestamp)
                }
            }
        }
        flush()
        eventHandled()
    }

    /// Logs the request and sends `head` with the body the request gets.
    private func answer(
        _ response: Response, head: UnsafeBufferPointer<UInt8>, for request: Request, requestID: String,
        started: ContinuousClock.Instant, timestamp: String
    ) {
        // HEAD gets the GET head without the body (RFC 9110 §9.3.2); 1xx/204/304 never carry one.
        let sendsBody = request.method != .head && response.status.allowsBody && !response.body.isEmpty
        let body = sendsBody ? response.body : []
        AccessLog.request(
            request, status: response.status, bodyBytes: body.count, requestID: requestID, started: started,
            logger: environment.logger, timestamp: timestamp)
        send(head: head, body: body)
    }

    // MARK: - Writing

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

    // MARK: - Writing

    /// Writes as much pending output as the socket takes, usually all of it in one `sendmsg`; on EAGAIN the
    /// next EPOLLOUT edge resumes it.
    private func flush() {
        guard !isClosed else { return }
        while !output.isEmpty {
            let written = output.send(to: fd)
            if written > 0 {
                if !output.isEmpty { state.writeProgressed(now: loop.now) }
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
            announceLastAnswer()
            AccessLog.refused(status: status, peer: peer, logger: environment.logger)
            let head = Self.serializeOrDie(ErrorResponse.protocolError(status), close: true, keepAliveHTTP10: false)
            output.append(head)
            output.append(Array(status.reason.utf8))
            flush()
        case .parseBuffered:
            parseBuffered()
            readWhileWanted()
        case .startLingering:
            shutdown(fd, Int32(SHUT_WR))
            // Input may have arrived (or ended) while nothing was read; the edge for it has passed.
            readReady = true
            readWhileWanted()
        case .close:
            closeNow()
        }
    }

    /// Called once at the end of each entry point (start, shutdown, events, timer, response), whatever happened
    /// in between: the deadline only matters once the loop waits again, and the standing once the server looks.
    private func eventHandled() {
        updateTimer()
        let standing = isClosed ? .busy : state.standing
        if standing != publishedStanding {
            publishedStanding = standing
            standingBox.withLock { $0 = standing }
        }
    }

    /// Arms the loop's timer for the state's next deadline. It is only re-armed when the deadline moves
    /// earlier: a deadline that moved later makes the timer fire early, find nothing due, and re-arm once.
    private func updateTimer() {
        guard !isClosed, let deadline = state.nextDeadline else { return }
        if let armed = armedDeadline, armed <= deadline { return }
        armedDeadline = deadline
        loop.arm(slot: slot, generation: generation, deadline: deadline)
    }

    private func announceLastAnswer() {
        guard !lastAnswerAnnounced else { return }
        lastAnswerAnnounced = true
        environment.onLastAnswer(id)
    }

    private func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        state.closed()
        output.removeAll()
        // Closing the fd removes it from the epoll set; the slot's new generation voids queued events.
        if slot >= 0 { loop.deregister(slot: slot) }
        standingBox.withLock { $0 = .busy }
        environment.onClose(id)
        close(fd)
        // A waiting worker ends; a busy one ends after its handler returns (its answer is dropped).
        pendingRequest = nil
        if let waiter = requestWaiter {
            requestWaiter = nil
            waiter.resume(returning: nil)
        }
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
