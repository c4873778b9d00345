import CLinux
import Glibc
import HTTPCore
import Logging
import Synchronization

/// The only type that touches a client socket. `ConnectionState` decides what happens next; this class feeds
/// it events and carries out the actions it returns, all of them in `perform(_:with:)`. By concern:
/// - this file: the entry points (start, shutdown, eviction, epoll events, timers) and the deadline;
/// - `Connection+Reading.swift`: `recv` into the parser, and the events the parser gives;
/// - `Connection+Handlers.swift`: handing requests to the connection's handler task and taking its answers;
/// - `Connection+Writing.swift`: serializing answers and sending them;
/// - `Connection+Actions.swift`: carrying out `ConnectionState.Action`s, and closing.
///
/// Each connection lives on one `EventLoop` thread, which watches its socket with edge-triggered epoll and
/// keeps its deadline. Invariant (`@unchecked Sendable`): every mutable property is read and written only on
/// that loop's thread; other threads reach it through `loop.execute`, and handler tasks prefer the loop as
/// their executor, so the code after a handler's `await` is back on it. The properties are internal only so
/// that the extension files can reach them; nothing outside these files touches them.
///
/// Why an epoll loop and not the Dispatch design the server started with (one read source and one serial
/// queue per connection, which survived slowloris where a blocking thread per connection did not): measured
/// with `Benchmarks/http.sh` (20 KB page, 64 connections, 2 cores, access log on), that design spent 29.5 µs of
/// CPU per request against nginx's 6.5 µs (22-33 µs once log lines were batched): libdispatch re-arms a read
/// source after each event through its manager thread, which cost 2 `epoll_ctl`, an `ioctl`, an eventfd `write`
/// and 1.1-1.8 context switches per request (perf: 35% of samples in `finish_task_switch`), more than nginx's
/// whole request. Here a request costs one `recv`, one `sendmsg` and a share of an `epoll_wait` (2.07 syscalls
/// and 0.07-0.25 context switches per request, 13.0-14.5 µs of CPU), and http.sh went from 0.37 to 0.63 × nginx
/// at 64 connections (1.05 once the head was built on the stack). These are docs/ARCHITECTURE.md's figures, commit
/// by commit. What made the Dispatch design slowloris-proof is kept: sockets are non-blocking, no thread ever
/// waits on one client, and every phase has a deadline (slowhttptest -c 1000 -H: probes still answered in
/// 0.5-6 ms).
final class Connection: @unchecked Sendable {
    /// What every connection of one server shares: one object per server, so a connection holds a reference
    /// rather than its own copy of the configuration, the policy and the closures (issue 21: an idle connection
    /// should cost about 1 KiB; the copy was about 600 bytes of it).
    final class Environment: Sendable {
        /// What answers the requests (the app's router and middleware).
        let responder: any HTTPResponder
        /// The server's logger.
        let logger: Logger
        /// The same, as each request's context starts from it (which adds the request's id).
        let contextLogger: RequestContext.SharedLogger
        /// The limits the parser enforces and the deadlines and request cap `ConnectionState` enforces
        /// (`configuration.connection`) come from here.
        let configuration: ServerConfiguration
        /// Gives each request its id.
        let requestIDs: RequestIDGenerator
        /// Sums repeated identical access-log lines (nil: every line is written).
        let accessLog: AccessLogSummer?
        /// When an answer given at once may be given again from the loop's `AnswerMemo` (nil: never).
        let answerEpoch: AnswerEpoch?
        /// This server's memo on each loop (`EventLoop.index`); empty without `answerEpoch`.
        let answerMemos: [AnswerMemo.PerLoop]
        /// Called once, on the loop thread, as the socket closes: just before `close(2)`, so a client that sees
        /// the close and reconnects at once finds its slot (and its per-address count) already free.
        let onClose: @Sendable (Int) -> Void
        /// Called once, on the loop thread, just before the connection's last answer (one that says
        /// `Connection: close`) is sent: a client that reconnects as soon as it reads that answer must find its
        /// slot free, before the socket is even closed (wrk does, every 1 000 requests).
        let onLastAnswer: @Sendable (Int) -> Void
        /// Called on the loop thread when a trusted proxy's connection carries a request of another client: it
        /// counts under that client's address from now on (`ConnectionTable.readdress`).
        let onReaddress: @Sendable (Int, String) -> Void

        /// Everything a server's connections share.
        init(
            responder: any HTTPResponder, logger: Logger, configuration: ServerConfiguration,
            requestIDs: RequestIDGenerator, accessLog: AccessLogSummer? = nil, answerEpoch: AnswerEpoch? = nil,
            onClose: @escaping @Sendable (Int) -> Void, onLastAnswer: @escaping @Sendable (Int) -> Void = { _ in },
            onReaddress: @escaping @Sendable (Int, String) -> Void = { _, _ in }
        ) {
            self.responder = responder
            self.logger = logger
            contextLogger = RequestContext.SharedLogger(logger, tagsRequestID: true)
            self.configuration = configuration
            self.requestIDs = requestIDs
            self.accessLog = accessLog
            self.answerEpoch = answerEpoch
            answerMemos =
                answerEpoch == nil ? [] : EventLoopGroup.shared.loops.map { _ in AnswerMemo.PerLoop() }
            self.onClose = onClose
            self.onLastAnswer = onLastAnswer
            self.onReaddress = onReaddress
        }
    }

    /// The server-wide id of this connection.
    let id: Int
    /// The loop whose thread owns this connection.
    let loop: EventLoop
    /// The client socket, non-blocking.
    let fd: Int32
    /// The client's address and port, for the logs.
    let peer: String
    /// The client's address, read from the socket once, for handlers (`RequestContext.peer`).
    let client: IPAddress?
    /// The client's address as text (`IPAddress.clientKey`: the address, an IPv6 one's /64; the peer when the address
    /// is unknown), formatted once: the access log's summer keys every request's line on it (0.7 % of a warm page when
    /// formatted per request), and the log's byte bound shares by it (issue 48 point 6).
    let clientText: String
    /// What this connection shares with the others of its server.
    let environment: Environment
    // `@exclusivity(unchecked)` on every property below: only the loop's thread touches them (the invariant above),
    // and the compiler's static checks still apply; the runtime check of each access cost about 2 % of a warm
    // request's CPU each time it was measured (perf: `swift_beginAccess`, `__tls_get_addr` and `AccessSet::insert`
    // under `send`, `flush`, `readIntoParser`, then, with only the larger properties unchecked, under `flush`,
    // `eventHandled` and `parseBuffered`).
    /// The loop's token for this connection (set once registered).
    @exclusivity(unchecked) private var slot = -1
    @exclusivity(unchecked) private var generation: UInt32 = 0
    /// Set by `closeNow()`: the fd is closed (its number may already belong to another socket).
    @exclusivity(unchecked) var isClosed = false
    /// Edge-triggered epoll reports new input once: until a read comes back short, empty or EAGAIN, more may
    /// be waiting in the kernel (also while a handler runs and reading is deliberately left for later).
    @exclusivity(unchecked) var readReady = false
    /// The peer shut down its side (EPOLLRDHUP/HUP): read on to the EOF even after a short read.
    @exclusivity(unchecked) var peerHungUp = false
    /// Output hit EAGAIN; the next EPOLLOUT edge resumes it.
    @exclusivity(unchecked) var waitingForWritable = false
    /// The connection is in its loop's list of sockets to flush at the end of the round (`flushAtEndOfRound`).
    @exclusivity(unchecked) var flushScheduled = false
    @exclusivity(unchecked) private var armedDeadline: ConnectionState.Instant?
    /// The handler task while one runs (see `startWorker`); nil while the connection is idle.
    @exclusivity(unchecked) var worker: Task<Void, Never>?
    /// The request the worker has not taken yet, with its context and the work its answer left (`Answer.later`).
    @exclusivity(unchecked) var pendingRequest: (Dispatched, RequestContext, @Sendable () async throws -> Response)?
    /// What interrupts the wait of a request answered `Answer.parked`, while it waits (no task holds it).
    @exclusivity(unchecked) var parkedWait: (@Sendable () -> Void)?
    /// An answer given at once on the loop (`Answer.now`), written at the end of the event.
    @exclusivity(unchecked) var immediateAnswer: (Response, Dispatched)?
    /// Turns the bytes read into requests.
    @exclusivity(unchecked) var parser: RequestParser
    /// Decides what happens next; only `perform(_:with:)` carries out its actions.
    @exclusivity(unchecked) var state: ConnectionState
    /// What the socket has not taken yet.
    @exclusivity(unchecked) var output = OutputQueue()
    /// Bytes dropped while lingering, bounded so a client cannot keep us reading forever.
    @exclusivity(unchecked) var lingerBytesDropped = 0
    /// Behind a trusted proxy, the client address this connection counts under now (nil: the peer's, as admitted).
    @exclusivity(unchecked) var accountedAs: String?
    /// Whether `onLastAnswer` has run.
    @exclusivity(unchecked) var lastAnswerAnnounced = false
    /// `state.standing` as last published to `standing`, so the lock is taken only when it changes.
    @exclusivity(unchecked) private var publishedStanding: ConnectionState.Standing
    /// What the server reads when it must choose a connection to close at the cap; written on the loop thread at
    /// the end of each event, read by the accept thread.
    let standingBox: Mutex<ConnectionState.Standing>
    /// What the running handler says it waits for (its requests get it in their context).
    let activity = RequestActivity()

    /// Wraps an accepted, non-blocking socket. Nothing happens until `start()`.
    init(id: Int, fd: Int32, peer: String, client: IPAddress?, loop: EventLoop, environment: Environment) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.client = client
        self.clientText = client?.clientKey ?? peer
        self.loop = loop
        self.environment = environment
        self.parser = RequestParser(limits: environment.configuration.limits)
        // Built on the accepting thread, which must not read the loop's `now`; `start()` starts it again on the loop.
        let state = ConnectionState(policy: environment.configuration.connection, now: loop.started)
        self.state = state
        self.publishedStanding = state.standing
        self.standingBox = Mutex(state.standing)
    }

    /// The connection's standing as of its last event (see `ConnectionState.Standing`), with what its handler
    /// waits for while one runs; any thread.
    var standing: ConnectionState.Standing {
        let standing = standingBox.withLock { $0 }
        return standing == .handling ? activity.standing : standing
    }

    // MARK: - Entry points from other threads

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
            // Idle from the loop's now: the one clock its deadlines are compared with.
            state = ConnectionState(policy: environment.configuration.connection, now: loop.now)
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

    /// The server chose this connection to make room at the cap: it closes (a parked poll after answering it)
    /// unless a request became busy in the meantime, in which case `refused` runs (on the loop thread) and the
    /// connection carries on.
    func evict(refused: @escaping @Sendable () -> Void) {
        loop.execute { [self] in
            guard !isClosed else { return }
            let action = state.evictionRequested(seen: activity.standing, now: loop.now)
            if action == .none { refused() }
            // A handler waiting on the upstream is given up: its task is told, its answer will be dropped.
            if action == .close { worker?.cancel() }
            perform(action)
            eventHandled()
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
        if waitingForWritable && events & (EPOLLOUT.rawValue | hangUp) != 0 { flushAtEndOfRound() }
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

    // MARK: - After each event

    /// Called once at the end of each entry point (start, shutdown, events, timer, answer), whatever happened
    /// in between: the deadline only matters once the loop waits again, and the standing once the server looks.
    func eventHandled() {
        answerImmediately()
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

    /// Stops watching the socket: called by `closeNow()` before it closes the fd.
    func deregister() {
        // Closing the fd removes it from the epoll set; the slot's new generation voids queued events.
        if slot >= 0 { loop.deregister(slot: slot) }
    }
}
