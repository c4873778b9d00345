import Dispatch
import Glibc
import Synchronization

/// An HTTP/1.1 server: a listening socket, an accept source, and one `Connection` per client, each served by
/// one of the process's event loops (`EventLoopGroup.shared`).
///
/// ```swift
/// let server = Server(configuration: .init(port: 8000), responder: router, logger: logger)
/// try server.start()
/// _ = await ShutdownSignal.wait()
/// await server.shutdown()
/// ```
public final class Server: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// e.g. "cannot listen on 127.0.0.1:8080: Address already in use (errno 98)".
        public let description: String
        /// True when another process holds the port: the command line can then name the flag that fixes it.
        public var addressInUse = false
    }

    private enum Phase {
        case created, running, stopping, stopped
    }

    private struct State {
        var phase = Phase.created
        var listenFD: Int32 = -1
        var port = 0
        var acceptSource: SendableSource?
        var connections: [Int: Connection] = [:]
        /// Connections over the cap that are being answered 503; bounded separately.
        var rejecting = 0
        var nextConnectionID = 0
        var drainWaiter: CheckedContinuation<Void, Never>?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let configuration: ServerConfiguration
    private let responder: any HTTPResponder
    private let logger: Logger
    private let requestIDs = RequestIDGenerator()
    private let acceptQueue = DispatchQueue(label: "http.accept", target: .global())
    private let state = Mutex(State())

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: ServerConfiguration, responder: some HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
    }

    /// The bound port (after `start()`; useful with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// The number of open client connections (including ones being answered 503).
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Binds and listens, then accepts in the background. Throws a clear error if the port is taken.
    public func start() throws {
        let fd: Int32
        do {
            fd = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        } catch {
            throw StartError(
                description: "cannot listen on \(configuration.host):\(configuration.port): \(error)",
                addressInUse: error.code == EADDRINUSE)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: acceptQueue)
        source.setEventHandler { [self] in acceptConnections(fd) }
        source.setCancelHandler { close(fd) }
        let port = Socket.localPort(fd)
        let started = state.withLock { state -> Bool in
            guard state.phase == .created else { return false }
            state.phase = .running
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
            return (source, Array(state.connections.values))
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
        let leftovers = state.withLock { Array($0.connections.values) }
        if !leftovers.isEmpty {
            logger.warning("grace period over, closing connections", ["connections": "\(leftovers.count)"])
            for connection in leftovers { connection.forceClose() }
            await waitForConnectionsToClose(orAfter: .seconds(5))
        }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.phase = .stopped
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        logger.notice("stopped")
        // Buffered stderr lines (the access log among them) are out before anyone learns we stopped.
        LogBuffer.standardError.flush()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the server has stopped (immediately if it never started or already stopped).
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.phase == .created || state.phase == .stopped { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    // MARK: - Accepting

    private func acceptConnections(_ listenFD: Int32) {
        // Bounded per event so one burst cannot monopolise the accept queue; the source fires again.
        for _ in 0..<64 {
            switch Socket.accept(listenFD) {
            case .success(let accepted):
                admit(fd: accepted.fd, peer: accepted.peer)
            case .failure(let failure):
                switch failure.code {
                case EINTR, ECONNABORTED:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    return
                default:
                    // EMFILE/ENFILE: the listen fd stays readable; back off instead of spinning.
                    logger.error("accept failed", ["error": failure.description])
                    pauseAccepting(for: .milliseconds(100))
                    return
                }
            }
        }
    }

    private func admit(fd: Int32, peer: String) {
        Socket.setNoDelay(fd)
        let maxRejecting = max(16, configuration.maxConnections / 8)
        let decision = state.withLock { state -> (id: Int, reject: Bool)? in
            guard state.phase == .running else { return nil }
            let active = state.connections.count - state.rejecting
            let reject = active >= configuration.maxConnections
            // Answering 503 costs a connection too; past this bound, the cheapest refusal is a plain close.
            if reject && state.rejecting >= maxRejecting { return nil }
            state.nextConnectionID += 1
            if reject { state.rejecting += 1 }
            return (id: state.nextConnectionID, reject: reject)
        }
        guard let decision else {
            close(fd)
            return
        }
        let rejected = decision.reject
        let environment = Connection.Environment(
            responder: responder, logger: logger, configuration: configuration,
            policy: ConnectionState.Policy(configuration), requestIDs: requestIDs,
            onClose: { [self] id in connectionClosed(id, rejected: rejected) })
        let connection = Connection(
            id: decision.id, fd: fd, peer: peer, loop: EventLoopGroup.shared.next(), environment: environment)
        let stillRunning = state.withLock { state -> Bool in
            state.connections[decision.id] = connection
            return state.phase == .running
        }
        if rejected {
            logger.warning("connection limit reached, answering 503", ["net.peer": peer])
            connection.start(rejecting: .serviceUnavailable)
        } else {
            connection.start()
        }
        // Shutdown began between the admission and the registration: this one missed the broadcast.
        if !stillRunning { connection.requestShutdown() }
    }

    private func connectionClosed(_ id: Int, rejected: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.connections[id] = nil
            if rejected { state.rejecting -= 1 }
            guard state.connections.isEmpty else { return nil }
            defer { state.drainWaiter = nil }
            return state.drainWaiter
        }
        waiter?.resume()
    }

    private func pauseAccepting(for delay: Duration) {
        guard let source = state.withLock({ $0.acceptSource }) else { return }
        source.source.suspend()
        // Resumed even if shutdown cancelled it meanwhile: a suspended source never runs its cancel handler,
        // which is what closes the listening socket.
        acceptQueue.asyncAfter(deadline: .now() + delay.dispatchInterval) {
            source.source.resume()
        }
    }

    /// Waits until no connection is open, or `timeout` passes, whichever comes first.
    private func waitForConnectionsToClose(orAfter timeout: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.connections.isEmpty { return true }
                state.drainWaiter = continuation
                return false
            }
            if resumeNow {
                continuation.resume()
                return
            }
            acceptQueue.asyncAfter(deadline: .now() + timeout.dispatchInterval) { [self] in
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    defer { state.drainWaiter = nil }
                    return state.drainWaiter
                }
                waiter?.resume()
            }
        }
    }
}

/// The accept source, shareable across the lock. Invariant: Dispatch sources are thread-safe objects (their
/// resume/suspend/cancel may be called from any thread); Swift's overlay just does not mark them Sendable.
private struct SendableSource: @unchecked Sendable {
    let source: any DispatchSourceRead
}
