import Dispatch
import Glibc
import Logging
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

    /// What a registered connection is doing, for the counts the admission decides on.
    private enum Role {
        /// Admitted and counted against the cap and its address's limit.
        case serving
        /// Over a limit and being answered 503; bounded separately.
        case rejecting
        /// Chosen to make room at the cap and about to close; still counted against its address.
        case evicting
        /// Sending its last answer (`Connection: close`) and about to close; no longer counted anywhere.
        case finishing
    }

    private struct Entry {
        var connection: Connection
        var address: String
        var role: Role
    }

    private struct State {
        var phase = Phase.created
        var listenFD: Int32 = -1
        var port = 0
        var acceptSource: SendableSource?
        var connections: [Int: Entry] = [:]
        /// Entries whose role is `.serving`: what the cap counts.
        var serving = 0
        /// Entries whose role is `.rejecting`.
        var rejecting = 0
        /// Serving and evicting connections per client address (no entry for zero).
        var perAddress: [String: Int] = [:]
        var nextConnectionID = 0
        var refusals = RefusalLog()
        var drainWaiter: CheckedContinuation<Void, Never>?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        /// What every connection shares, made once at start (it holds the server weakly: the server holds it).
        var environment: Connection.Environment?
    }

    private let configuration: ServerConfiguration
    private let responder: any HTTPResponder
    private let logger: Logger
    private let requestIDs = RequestIDGenerator()
    private let accessLog: AccessLogSummer
    private let acceptQueue = DispatchQueue(label: "http.accept", target: .global())
    private let state = Mutex(State())

    /// Creates a server; nothing is bound until `start()`. Its access log sums repeated identical answers to one
    /// address within a second (`AccessLogSummary`) through `accessLog`, one of its own unless given.
    public init(
        configuration: ServerConfiguration, responder: some HTTPResponder, logger: Logger,
        accessLog: AccessLogSummer = AccessLogSummer()
    ) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.accessLog = accessLog
    }

    /// The bound port (after `start()`; useful with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// The number of open client connections (including ones being answered 503).
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// The standings of the admitted connections (what the at-cap eviction chooses from); for tests.
    var standings: [ConnectionState.Standing] {
        state.withLock { state in state.connections.values.filter { $0.role == .serving }.map(\.connection) }
            .map(\.standing)
    }

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
        let environment = Connection.Environment(
            responder: responder, logger: logger, configuration: configuration,
            policy: ConnectionState.Policy(configuration), requestIDs: requestIDs, accessLog: accessLog,
            onClose: { [weak self] id in self?.connectionClosed(id) },
            onLastAnswer: { [weak self] id in self?.lastAnswer(id) })
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
            return (source, state.connections.values.map(\.connection))
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
        let leftovers = state.withLock { $0.connections.values.map(\.connection) }
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
                admit(fd: accepted.fd, peer: accepted.peer, client: accepted.address)
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

    /// How a new connection is received.
    private enum Admission {
        /// The server is stopping, or even a 503 would cost too much: close the socket.
        case close
        /// Serve it as connection `id`; first close `victim` (evicted) to make room, if there is one.
        case serve(id: Int, victim: (id: Int, connection: Connection)?)
        /// Answer 503 as connection `id`, then close.
        case reject(id: Int)
    }

    /// Admits, refuses or makes room for a new connection. Runs on the accept queue, the only place connections
    /// are added, so what it decides under the lock cannot be undone by another admission in between.
    private func admit(fd: Int32, peer: String, client: IPAddress?) {
        Socket.setNoDelay(fd)
        if let bytes = configuration.sendBufferBytes { Socket.setSendBuffer(fd, bytes: bytes) }
        // What the per-client limit counts by: the peer without its port.
        let address = client?.description ?? peer
        let now = ContinuousClock.now
        var admission = state.withLock { state -> Admission? in
            guard state.phase == .running else { return .close }
            if state.perAddress[address, default: 0] >= configuration.connectionsPerClientLimit {
                return refuse(&state, .perClientLimit, peer: peer, now: now)
            }
            if state.serving < configuration.maxConnections {
                return .serve(id: reserve(&state, address: address), victim: nil)
            }
            return nil
        }
        if admission == nil {
            admission = makeRoom(for: address, peer: peer, now: now)
        }
        switch admission {
        case .close, nil:
            close(fd)
        case .reject(let id):
            register(id: id, fd: fd, peer: peer, client: client, address: address, role: .rejecting)
        case .serve(let id, let victim):
            if let victim {
                victim.connection.evict(refused: { [self] in evictionRefused(victim.id) })
            }
            register(id: id, fd: fd, peer: peer, client: client, address: address, role: .serving)
        }
    }

    /// At the cap: choose a connection to close for the newcomer (`Eviction`: from the largest holder, never from an
    /// address holding fewer than the newcomer's), or refuse the newcomer. The
    /// standings are read outside the server's lock; only this queue adds connections, so the choice still
    /// holds when it is committed (a victim that closed meanwhile is simply not found).
    private func makeRoom(for address: String, peer: String, now: ContinuousClock.Instant) -> Admission {
        let serving = state.withLock { state in
            state.connections.compactMap { $0.value.role == .serving ? ($0.key, $0.value) : nil }
        }
        let candidates = serving.map {
            Eviction.Candidate(id: $0.0, address: $0.1.address, standing: $0.1.connection.standing)
        }
        let victim = Eviction.victim(among: candidates, newcomer: address, now: now)
        return state.withLock { state -> Admission in
            guard state.phase == .running else { return .close }
            if let victim, let entry = state.connections[victim], entry.role == .serving {
                state.connections[victim]?.role = .evicting
                state.serving -= 1
                logRefusal(&state, .evicted, peer: peer, now: now)
                return .serve(id: reserve(&state, address: address), victim: (victim, entry.connection))
            }
            if state.serving < configuration.maxConnections {
                return .serve(id: reserve(&state, address: address), victim: nil)
            }
            return refuse(&state, .atCapacity, peer: peer, now: now)
        }
    }

    /// Counts a new serving connection and returns its id.
    private func reserve(_ state: inout State, address: String) -> Int {
        state.nextConnectionID += 1
        state.serving += 1
        state.perAddress[address, default: 0] += 1
        return state.nextConnectionID
    }

    /// A 503 for the newcomer, or a plain close once the 503s themselves reach their bound (answering costs a
    /// connection too; past the bound the cheapest refusal is the close).
    private func refuse(_ state: inout State, _ reason: RefusalLog.Reason, peer: String, now: ContinuousClock.Instant)
        -> Admission
    {
        let maxRejecting = max(16, configuration.maxConnections / 8)
        guard state.rejecting < maxRejecting else {
            logRefusal(&state, .dropped, peer: peer, now: now)
            return .close
        }
        logRefusal(&state, reason, peer: peer, now: now)
        state.nextConnectionID += 1
        state.rejecting += 1
        return .reject(id: state.nextConnectionID)
    }

    /// Counts a refusal and writes the one line per second `RefusalLog` allows (under the lock, which costs
    /// nothing measurable at one line a second).
    private func logRefusal(
        _ state: inout State, _ reason: RefusalLog.Reason, peer: String, now: ContinuousClock.Instant
    ) {
        switch state.refusals.record(reason, now: now) {
        case .log(let counts):
            logger.warning("connections refused or closed to make room", counts.metadata(lastPeer: peer))
        case .heldFirst(let flushAt):
            acceptQueue.asyncAfter(deadline: .now() + (flushAt - now).dispatchInterval) { [self] in
                let counts = self.state.withLock { $0.refusals.flush(now: .now) }
                if let counts {
                    logger.warning("connections refused or closed to make room", counts.metadata(lastPeer: nil))
                }
            }
        case .held:
            break
        }
    }

    private func register(id: Int, fd: Int32, peer: String, client: IPAddress?, address: String, role: Role) {
        // Set by `start()` before any connection can be admitted.
        guard let environment = state.withLock({ $0.environment }) else { preconditionFailure("admitted before start") }
        let connection = Connection(
            id: id, fd: fd, peer: peer, client: client, loop: EventLoopGroup.shared.next(), environment: environment)
        let stillRunning = state.withLock { state -> Bool in
            state.connections[id] = Entry(connection: connection, address: address, role: role)
            return state.phase == .running
        }
        if role == .rejecting {
            connection.start(rejecting: .serviceUnavailable)
        } else {
            connection.start()
        }
        // Shutdown began between the admission and the registration: this one missed the broadcast.
        if !stillRunning { connection.requestShutdown() }
    }

    /// A victim became busy before it could be closed: it counts as serving again (the cap is exceeded by one
    /// until a connection closes, rather than cutting off a request in progress).
    private func evictionRefused(_ id: Int) {
        state.withLock { state in
            guard state.connections[id]?.role == .evicting else { return }
            state.connections[id]?.role = .serving
            state.serving += 1
        }
    }

    /// A connection is sending its last answer: its slot and its address's count are free from now on.
    private func lastAnswer(_ id: Int) {
        state.withLock { state in
            // The 503 of a refusal stays bounded by `rejecting` until the socket closes.
            guard let entry = state.connections[id], Self.freeSlot(&state, of: entry) else { return }
            state.connections[id]?.role = .finishing
        }
    }

    /// Frees the slot and the address count a serving or evicting connection holds; false for any other role (a
    /// refusal's 503 counts in `rejecting`; a finishing connection freed its slot already).
    private static func freeSlot(_ state: inout State, of entry: Entry) -> Bool {
        switch entry.role {
        case .serving:
            state.serving -= 1
            release(&state, address: entry.address)
            return true
        case .evicting:
            release(&state, address: entry.address)
            return true
        case .rejecting, .finishing:
            return false
        }
    }

    private func connectionClosed(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let entry = state.connections.removeValue(forKey: id), !Self.freeSlot(&state, of: entry),
                entry.role == .rejecting
            {
                state.rejecting -= 1
            }
            guard state.connections.isEmpty else { return nil }
            defer { state.drainWaiter = nil }
            return state.drainWaiter
        }
        waiter?.resume()
    }

    private static func release(_ state: inout State, address: String) {
        let count = state.perAddress[address, default: 1] - 1
        state.perAddress[address] = count > 0 ? count : nil
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
