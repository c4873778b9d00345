import Dispatch
import Glibc
import Timing

/// Who gets in: accepting, the per-address share and the cap, making room at the cap (`Eviction`), the 503s and
/// their one log line a second (`RefusalLog`). Runs on the accept queue, the only place connections are added.
extension Server {
    func acceptConnections(_ listenFD: Int32) {
        // Bounded per event so one burst cannot monopolise the accept queue; the source fires again.
        for _ in 0..<64 {
            switch accept(listenFD) {
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
        let now = clock.now
        var admission = state.withLock { state -> Admission? in
            guard state.phase == .running else { return .close }
            // A trusted proxy carries many clients: only the cap bounds it (its connections count under the client
            // each request is forwarded for, `Connection.accountForwardedClient`).
            if !configuration.isTrustedProxy(client),
                state.table.count(of: address) >= configuration.connectionsPerClientLimit
            {
                return refuse(&state, .perClientLimit, peer: peer, now: now)
            }
            if state.table.serving < configuration.maxConnections {
                return .serve(id: state.table.reserveServing(address: address), victim: nil)
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
                victim.connection.evict(refused: { [self] in
                    state.withLock { $0.table.evictionRefused(victim.id) }
                })
            }
            register(id: id, fd: fd, peer: peer, client: client, address: address, role: .serving)
        }
    }

    /// At the cap: choose a connection to close for the newcomer (`Eviction`: from the largest holder, never from an
    /// address holding fewer than the newcomer's), or refuse the newcomer. The
    /// standings are read outside the server's lock; only this queue adds connections, so the choice still
    /// holds when it is committed (a victim that closed meanwhile is simply not found).
    private func makeRoom(for address: String, peer: String, now: ContinuousClock.Instant) -> Admission {
        let serving = state.withLock { $0.table.servingEntries }
        let candidates = serving.map {
            Eviction.Candidate(id: $0.id, address: $0.entry.address, standing: $0.entry.handle.standing)
        }
        let victim = Eviction.victim(among: candidates, newcomer: address, now: MonotonicInstant(now))
        return state.withLock { state -> Admission in
            guard state.phase == .running else { return .close }
            if let victim, let connection = state.table.evict(victim) {
                logRefusal(&state, .evicted, peer: peer, now: now)
                return .serve(id: state.table.reserveServing(address: address), victim: (victim, connection))
            }
            if state.table.serving < configuration.maxConnections {
                return .serve(id: state.table.reserveServing(address: address), victim: nil)
            }
            return refuse(&state, .atCapacity, peer: peer, now: now)
        }
    }

    /// A 503 for the newcomer, or a plain close once the 503s themselves reach their bound (answering costs a
    /// connection too; past the bound the cheapest refusal is the close).
    private func refuse(_ state: inout State, _ reason: RefusalLog.Reason, peer: String, now: ContinuousClock.Instant)
        -> Admission
    {
        let maxRejecting = max(16, configuration.maxConnections / 8)
        guard state.table.rejecting < maxRejecting else {
            logRefusal(&state, .dropped, peer: peer, now: now)
            return .close
        }
        logRefusal(&state, reason, peer: peer, now: now)
        return .reject(id: state.table.reserveRejecting())
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
            clock.after(flushAt) { [self] in
                let counts = self.state.withLock { $0.refusals.flush(now: clock.now) }
                if let counts {
                    logger.warning("connections refused or closed to make room", counts.metadata(lastPeer: nil))
                }
            }
        case .held:
            break
        }
    }

    private func register(
        id: Int, fd: Int32, peer: String, client: IPAddress?, address: String, role: ConnectionTable<Connection>.Role
    ) {
        // Set by `start()` before any connection can be admitted.
        guard let environment = state.withLock({ $0.environment }) else { preconditionFailure("admitted before start") }
        let connection = Connection(
            id: id, fd: fd, peer: peer, client: client, loop: EventLoopGroup.shared.next(), environment: environment)
        let stillRunning = state.withLock { state -> Bool in
            state.table.register(id: id, handle: connection, address: address, role: role)
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

    /// EMFILE/ENFILE: stops accepting for `delay`.
    private func pauseAccepting(for delay: Duration) {
        guard let source = state.withLock({ $0.acceptSource }) else { return }
        source.source.suspend()
        // Resumed even if shutdown cancelled it meanwhile: a suspended source never runs its cancel handler,
        // which is what closes the listening socket.
        clock.after(clock.now + delay) {
            source.source.resume()
        }
    }
}
