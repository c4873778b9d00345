import Dispatch
import Synchronization
import Timing

/// The dashboard's upstream HTTP client: keep-alive sockets from a small pool, our own response parser, and
/// hard deadlines (connect ~1 s, the answer's first byte ~3 s, then `AnswerDeadline`: bytes must keep arriving).
///
/// Chosen over URLSession for the hot path: it costs a third to a sixth as much per call. Measured with
/// `UpstreamClientBenchmarkTests` (HABITS_BENCH=1, debug build, this 2-core machine shared with other builds,
/// load average ~9), per call, wall time / CPU time (CPU includes the in-process server):
///
///     loopback test server, 60 B JSON:       socket 0.10 ms / 0.10 ms    URLSession 0.63 ms / 0.41 ms
///     loopback test server, 100 KB JSON:     socket 0.17 ms / 0.17 ms    URLSession 0.85 ms / 0.74 ms
///     simulator /categories (387 B):         socket 0.60 ms / 0.27 ms    URLSession 1.01 ms / 0.63 ms
///     simulator /combinedStats (98 KB):      socket 0.53 ms / 0.48 ms    URLSession 1.70 ms / 0.83 ms
///
/// URLSession on Linux also has no connect timeout of its own and truncates timeouts to whole seconds (a 0.3 s
/// timeout fails at once), while this client enforces connect ~1 s and total ~3 s deadlines exactly.
///
/// Blocking socket calls run on Dispatch, bridged to `async` with a continuation, so Swift concurrency's
/// cooperative threads are never blocked. Each call has a serial queue of its own: Dispatch runs a concurrent
/// queue's blocking items only about as many at a time as there are cores, so a slow upstream (an image fetch
/// that hangs) held every other call, the statistics included, in the queue while their deadlines ran; serial
/// queues get a thread each, and the limiter bounds them by `maxConcurrentCalls`. The coalescer in front keeps the
/// number of simultaneous upstream calls small (one per distinct request).
public final class SocketTransport: HTTPTransport {
    /// The upstream and its limits.
    public let configuration: UpstreamConfiguration
    private let idle: Mutex<IdleConnectionPool<Socket>>
    private let opened = Atomic<Int>(0)
    private let limiter: AsyncLimiter
    /// Ages pooled connections; injected so tests decide whether a pause outlives `maxIdleTime`. (The sockets'
    /// own deadlines are `poll(2)` timeouts the kernel counts in real time, so they read the system clock through
    /// `Socket.now()`, and the limiter's deadlines with them.)
    private let clock: any TimeSource

    /// Creates a transport for `configuration`; `clock` ages idle connections (the real clock unless a test says).
    public init(configuration: UpstreamConfiguration, clock: any TimeSource = SystemTimeSource()) {
        self.configuration = configuration
        self.clock = clock
        limiter = AsyncLimiter(limit: configuration.maxConcurrentCalls, clock: SystemTimeSource())
        idle = Mutex(
            IdleConnectionPool(
                capacity: configuration.maxIdleConnections, maxIdle: max(.zero, configuration.maxIdleTime)))
    }

    deinit {
        for socket in idle.withLock({ $0.removeAll() }) { socket.close() }
    }

    /// How many TCP connections this transport has opened (reuse keeps it low; for tests and metrics).
    public var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    public func send(_ request: HTTPClientRequest) async throws(HabitsAPIError) -> HTTPClientResponse {
        // The total timeout runs from the call, not from when it gets a place: otherwise calls queued behind slow
        // ones wait several timeouts (Home took 19.7 s behind 64 image misses to a hanging upstream).
        let start = Socket.now()
        let deadline = start + max(.zero, configuration.totalTimeout)
        guard await limiter.acquire(until: deadline) else {
            throw .transport("timed out waiting for a free upstream connection")
        }
        defer { limiter.release() }
        let result: Result<HTTPClientResponse, HabitsAPIError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "HabitsAPI.SocketTransport.call", qos: .userInitiated).async {
                continuation.resume(returning: self.perform(request, start: start))
            }
        }
        return try result.get()
    }

    /// One call, start to finish, on a queue thread; gives up when `AnswerDeadline` says (from `start`).
    private func perform(_ request: HTTPClientRequest, start: ContinuousClock.Instant) -> Result<
        HTTPClientResponse, HabitsAPIError
    > {
        let deadline = start + max(.zero, configuration.totalTimeout)
        guard Socket.now() < deadline else { return .failure(.transport("timed out before the call could start")) }
        let bytes = request.serialized(hostHeader: configuration.hostHeader)
        do throws(HabitsAPIError) {
            if let socket = takeIdle() {
                do throws(Attempt) {
                    return .success(try exchange(bytes, on: socket, start: start))
                } catch {
                    // A pooled connection the server closed meanwhile fails before any byte comes back; a request
                    // that is safe to repeat goes again on a fresh connection. Anything else is the answer.
                    guard error.receivedNothing, request.isIdempotent else { return .failure(error.cause) }
                }
            }
            let connectDeadline = min(deadline, Socket.now() + max(.zero, configuration.connectTimeout))
            let socket = try Socket.connect(
                host: configuration.host, port: configuration.port, deadline: connectDeadline)
            opened.add(1, ordering: .relaxed)
            do throws(Attempt) {
                return .success(try exchange(bytes, on: socket, start: start))
            } catch {
                return .failure(error.cause)
            }
        } catch {
            return .failure(error)
        }
    }

    private enum Attempt: Error {
        case failed(HabitsAPIError, receivedNothing: Bool)
        var cause: HabitsAPIError {
            switch self {
            case .failed(let error, _): error
            }
        }
        var receivedNothing: Bool {
            switch self {
            case .failed(_, let receivedNothing): receivedNothing
            }
        }
    }

    /// Writes the request and reads one response; returns the socket to the pool when it can carry another.
    private func exchange(_ bytes: [UInt8], on socket: Socket, start: ContinuousClock.Instant) throws(Attempt)
        -> HTTPClientResponse
    {
        var limits = ResponseParser.Limits()
        limits.bodyBytes = max(0, configuration.maxAnswerBytes)
        var parser = ResponseParser(limits: limits)
        var answer = AnswerDeadline(policy: configuration.answerDeadline, start: start)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        do throws(HabitsAPIError) {
            try socket.write(bytes, deadline: answer.deadline)
            while true {
                let event: ResponseParser.Event
                do throws(ResponseParseError) {
                    event = try parser.next()
                } catch {
                    throw .transport("bad response: \(error)")
                }
                if case .response(let response, let reusable) = event {
                    if reusable && !parser.hasBufferedBytes {
                        giveBack(socket)
                    } else {
                        socket.close()
                    }
                    return response
                }
                let count = try socket.read(into: &buffer, deadline: answer.deadline)
                if count == 0 {
                    parser.finish()
                } else {
                    answer.received(count, at: Socket.now())
                    received += count
                    parser.append(buffer[0..<count])
                }
            }
        } catch {
            socket.close()
            throw .failed(error, receivedNothing: received == 0)
        }
    }

    /// A pooled connection young enough to reuse and not closed by the server meanwhile, or nil.
    private func takeIdle() -> Socket? {
        // The clock is read before the lock, so another thread may stamp an entry later than `now`; the pool's
        // signed ages make that harmless (a regression test replays it).
        let now = clock.now
        while true {
            var expired: [Socket] = []
            let taken = idle.withLock { $0.take(at: now) { expired.append($0) } }
            for socket in expired { socket.close() }
            guard let socket = taken else { return nil }
            // The readability check is a syscall: made outside the lock.
            if !socket.isReadableWhileIdle { return socket }
            socket.close()
        }
    }

    private func giveBack(_ socket: Socket) {
        let stamp = clock.now
        if !idle.withLock({ $0.put(socket, at: stamp) }) { socket.close() }
    }
}
