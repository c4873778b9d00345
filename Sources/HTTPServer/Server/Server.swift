import Dispatch
import Glibc
import Logging
import Synchronization
import Timing

/// An HTTP/1.1 server: a listening socket, an accept source, and one `Connection` per client, each served by
/// one of the process's event loops (`EventLoopGroup.shared`).
///
/// ```swift
/// let server = Server(configuration: .init(port: 8000), responder: router, logger: logger)
/// try server.start()
/// _ = await ShutdownSignal.wait()
/// await server.shutdown()
/// ```
///
/// This file holds the life cycle (start, shutdown, the waits); `Server+Admission.swift` who gets in (accepting,
/// the limits, making room at the cap), and `ConnectionTable.swift` the connections and their counts.
public final class Server: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// e.g. "cannot listen on 127.0.0.1:8080: Address already in use (errno 98)".
        public let description: String
        /// True when another process holds the port: the command line can then name the flag that fixes it.
        public var addressInUse = false
        /// The port it could not listen on (0 when the error is not about listening).
        public var port = 0
    }

    enum Phase {
        case created, running, stopping, stopped
    }

    /// What the server's lock guards.
    struct State {
        var phase = Phase.created
        var listenFD: Int32 = -1
        var port = 0
        var acceptSource: SendableSource?
        var table = ConnectionTable<Connection>()
        var refusals = RefusalLog()
        /// Who waits for the last connection to close, each with the timer that ends its wait (cancelled when the last
        /// connection closes first).
        var drainWaiters = WaiterRegistry<Void, Void>()
        /// Who waits for the server to stop.
        var stopWaiters = WaiterRegistry<Void, Void>()
        /// What every connection shares, made once at start (it holds the server weakly: the server holds it).
        var environment: Connection.Environment?
    }

    // Internal, not private, only so that `Server+Admission.swift` can reach them.
    let configuration: ServerConfiguration
    let responder: any HTTPResponder
    let logger: Logger
    let requestIDs = RequestIDGenerator()
    let accessLog: AccessLogSummer
    /// When the responder's answers given at once may be given again (nil: never, every request is asked).
    let answerEpoch: AnswerEpoch?
    /// The one timer mechanism (`TimeSource.after`) and the clock admissions are timed on.
    let clock: any TimeSource
    let acceptQueue = DispatchQueue(label: "http.accept", target: .global())
    /// Takes the next connection off the listening socket: `Socket.accept`, or a test's stand-in (one that fails with
    /// EMFILE, which a test process cannot provoke without starving every test running beside it).
    let accept: @Sendable (Int32) -> Result<(fd: Int32, peer: String, address: IPAddress?), Socket.Failure>
    let state = Mutex(State())

    /// Creates a server; nothing is bound until `start()`. Its access log sums repeated identical answers to one
    /// address within a second (`AccessLogSummary`) through `accessLog`, one of its own unless given.
    public convenience init(
        configuration: ServerConfiguration, responder: some HTTPResponder, logger: Logger,
        accessLog: AccessLogSummer = AccessLogSummer(), answerEpoch: AnswerEpoch? = nil,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.init(
            configuration: configuration, responder: responder, logger: logger, accessLog: accessLog,
            answerEpoch: answerEpoch, clock: clock, accept: Socket.accept)
    }

    /// A server whose connections come from `accept` (for tests).
    init(
        configuration: ServerConfiguration, responder: some HTTPResponder, logger: Logger,
        accessLog: AccessLogSummer = AccessLogSummer(), answerEpoch: AnswerEpoch? = nil,
        clock: any TimeSource = SystemTimeSource(),
        accept: @escaping @Sendable (Int32) -> Result<(fd: Int32, peer: String, address: IPAddress?), Socket.Failure>
    ) {
        self.accept = accept
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.accessLog = accessLog
        self.answerEpoch = answerEpoch
        self.clock = clock
    }

    /// The bound port (after `start()`; useful with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// The number of open client connections (including ones being answered 503).
    public var connectionCount: Int { state.withLock { $0.table.entries.count } }

    /// The standings of the admitted connections (what the at-cap eviction chooses from); for tests.
    var standings: [ConnectionState.Standing] {
        state.withLock { state in state.table.servingEntries.map(\.entry.handle) }.map(\.standing)
    }

    /// Binds and listens, then accepts in the background. Throws a clear error if the port is taken.
    public func start() throws {
        let fd: Int32
        do {
            fd = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        } catch {
            throw StartError(
                description: "cannot listen on \(configuration.host):\(configuration.port): \(error)",
                addressInUse: error.code == EADDRINUSE, port: configuration.port)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: acceptQueue)
        source.setEventHandler { [self] in acceptConnections(fd) }
        source.setCancelHandler { close(fd) }
        let port = Socket.localPort(fd)
        let environment = Connection.Environment(
            responder: responder, logger: logger, configuration: configuration,
            requestIDs: requestIDs, accessLog: accessLog, answerEpoch: answerEpoch,
            onClose: { [weak self] id in self?.connectionClosed(id) },
            onLastAnswer: { [weak self] id in self?.state.withLock { $0.table.lastAnswer(id) } },
            onReaddress: { [weak self] id, address in self?.state.withLock { $0.table.readdress(id, to: address) } })
        let started = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .running
            state.environment = environment
            state.listenFD = fd
            state.port = port
            state.acceptSource = SendableSource(source: source)
            return true
        }
        guard started else {
            close(fd)
            throw StartError(description: "the server was already started")
        }
        source.resume()
        logger.notice("listening", ["net.host": configuration.host, "net.port": "\(port)"])
    }

    /// Stops accepting, lets in-flight requests finish (idle connections close at once), and after the
    /// grace period closes whatever is left. Returns when every connection is closed.
    public func shutdown() async {
        let (source, connections) = state.withLock { state -> (SendableSource?, [Connection]) in
            guard state.phase == .running else { return (nil, []) }
            state.phase = .stopping
            let source = state.acceptSource
            state.acceptSource = nil
            return (source, state.table.entries.values.map(\.handle))
        }
        guard let source else {
            await waitUntilStopped()
            return
        }
        source.source.cancel()
        logger.notice("shutting down", ["connections": "\(connections.count)"])
        for connection in connections { connection.requestShutdown() }

        let grace = configuration.shutdownGracePeriod
        await waitForConnectionsToClose(orAfter: grace)
        let leftovers = state.withLock { $0.table.entries.values.map(\.handle) }
        if !leftovers.isEmpty {
            logger.warning("grace period over, closing connections", ["connections": "\(leftovers.count)"])
            for connection in leftovers { connection.forceClose() }
            await waitForConnectionsToClose(orAfter: .seconds(5))
        }
        let waiters = state.withLock { state in
            state.phase = .stopped
            return state.stopWaiters.removeAll { _ in true }
        }
        logger.notice("stopped")
        // Buffered stderr lines (the access log among them) are out before anyone learns we stopped.
        LogBuffer.standardError.flush()
        for waiter in waiters { waiter.resume(()) }
    }

    /// Returns once the server has stopped (immediately if it never started or already stopped).
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.phase == .created || state.phase == .stopped { return true }
                state.stopWaiters.add((), continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Connection `id` closed (on its loop thread): its counts are freed, and a drain wait ends with the last one.
    func connectionClosed(_ id: Int) {
        let waiters = state.withLock { state -> [WaiterRegistry<Void, Void>.Waiter] in
            state.table.remove(id)
            guard state.table.isEmpty else { return [] }
            return state.drainWaiters.removeAll { _ in true }
        }
        for waiter in waiters { waiter.resume(()) }
    }

    /// Waits until no connection is open, or `timeout` passes, whichever comes first.
    private func waitForConnectionsToClose(orAfter timeout: Duration) async {
        let deadline = clock.now + timeout
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.table.isEmpty { return true }
                state.drainWaiters.add((), continuation, until: deadline, on: clock) { [self] id in
                    self.state.withLock { $0.drainWaiters.remove(id: id) }?.resume(())
                }
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// The accept source, shareable across the lock. Invariant: Dispatch sources are thread-safe objects (their
/// resume/suspend/cancel may be called from any thread); Swift's overlay just does not mark them Sendable.
struct SendableSource: @unchecked Sendable {
    let source: any DispatchSourceRead
}
