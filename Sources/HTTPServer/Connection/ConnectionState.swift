import HTTPCore
import Timing

/// Decides what a connection does next. No I/O and no clock: every event carries `now`, so tests drive it
/// with a fake clock and the `Connection` class only carries out the returned `Action`. This file holds the phases,
/// the actions and every event; `ConnectionPolicy.swift` the limits, `+Deadlines` when each phase's time is up, and
/// `+Standing` what the server sees of the connection when it must make room at the cap.
struct ConnectionState {
    /// A point on the monotonic clock.
    typealias Instant = MonotonicInstant

    /// How far a request body has come: what the body deadlines are computed from.
    struct BodyProgress: Equatable {
        /// When the head was complete (or `100 Continue` was sent): the body's clock starts here.
        var started: Instant
        /// The last read; the next must come within the body read timeout.
        var lastRead: Instant
        /// Body bytes received so far.
        var received: Int
    }

    /// How far an answer that the socket did not take at once has come: what the send rate is judged on.
    struct SendProgress: Equatable {
        /// When the socket first refused some of it.
        var started: Instant
        /// Bytes the peer has taken since.
        var sent: Int
    }

    /// Where the connection is in its request/response cycle.
    enum Phase: Equatable {
        /// Waiting for the first byte of a request (a fresh or kept-alive connection).
        case idle(since: Instant)
        /// Some of a request head has arrived (`received` bytes); all of it must arrive within the header timeout.
        case readingHead(since: Instant, received: Int)
        /// The head is complete and body bytes are expected: each read within the body read timeout, the whole
        /// body within the body timeout, and on average at the minimum body rate once the grace period is over.
        case readingBody(BodyProgress)
        /// A handler is working on the request; reading is paused so pipelined requests wait their turn.
        case responding(closeAfter: Bool)
        /// The response is being written; `linger` after an error answer.
        case writing(closeAfter: Bool, linger: Bool)
        /// The error answer is written and our side half-closed; the client's leftovers are being dropped.
        case lingering(until: Instant)
        /// The socket is closed; nothing more happens.
        case closed
    }

    /// What the connection must do after an event.
    enum Action: Equatable {
        /// Nothing new; keep waiting.
        case none
        /// Hand the request to the handler (reading pauses). Whether its answer ends the connection is decided
        /// when the answer is ready (`writeResponse`): a shutdown or a hang-up meanwhile can still make it so.
        case dispatch
        /// Write `HTTP/1.1 100 Continue`, then keep reading the body (RFC 9110 §10.1.1).
        case writeContinue
        /// Serialize and write the handler's response.
        case writeResponse(closeAfter: Bool)
        /// Write an error answer with `Connection: close`; lingering close follows once it is flushed.
        case writeError(HTTPStatus)
        /// Ready for the next request: parse what is already buffered (pipelining), then read again.
        case parseBuffered
        /// Half-close (shutdown SHUT_WR) and keep reading only to drop the client's leftover bytes.
        case startLingering
        /// Close the socket now.
        case close
        /// Tell the handler to answer now (cancel its task: a parked long poll answers its 304).
        case interruptHandler
    }

    let policy: Policy
    /// The current phase.
    private(set) var phase: Phase
    /// Requests received on this connection so far.
    private(set) var requestCount = 0
    /// Set once the server is shutting down: the current request is finished, then the connection closes.
    private(set) var isShuttingDown = false
    /// When output last made progress while some of it is still unwritten; nil when nothing is pending.
    private(set) var writeStalledSince: Instant?
    /// The send rate's measure while output is pending; nil when nothing is.
    private(set) var sendProgress: SendProgress?
    /// Answers (and their body bytes) written one after another since the connection last waited for its peer
    /// (`ConnectionState+Pipelining.swift`).
    var pipelined = (answers: 0, bytes: 0)

    /// A new connection, idle since `now`.
    init(policy: Policy, now: Instant) {
        self.policy = policy
        self.phase = .idle(since: now)
    }

    // MARK: - Reading

    /// The parser consumed everything and wants more; `parserPhase` tells whether a request has begun and
    /// `progress` how many bytes of its head (or, in the body, of its body) have arrived (`RequestParser.progress`).
    /// It only moves deadlines, so there is no action.
    mutating func needMoreData(parserPhase: RequestParser.Phase, progress: Int = 0, now: Instant) {
        switch phase {
        case .idle:
            switch parserPhase {
            case .idle: break
            case .head: phase = .readingHead(since: now, received: progress)
            case .body: phase = .readingBody(BodyProgress(started: now, lastRead: now, received: progress))
            }
        case .readingHead(let since, _):
            switch parserPhase {
            case .idle: break
            case .head: phase = .readingHead(since: since, received: progress)
            case .body: phase = .readingBody(BodyProgress(started: now, lastRead: now, received: progress))
            }
        case .readingBody(var body):
            body.lastRead = now
            body.received = progress
            phase = .readingBody(body)
        case .responding, .writing, .lingering, .closed:
            break
        }
    }

    /// The head is complete and the client waits for `100 Continue` before sending the body.
    mutating func continueExpected(now: Instant) -> Action {
        guard case .closed = phase else {
            phase = .readingBody(BodyProgress(started: now, lastRead: now, received: 0))
            return .writeContinue
        }
        return .none
    }

    /// A whole request arrived; `keepAlive` is what the request itself asks for.
    mutating func requestReceived(keepAlive: Bool, now: Instant) -> Action {
        if case .closed = phase { return .none }
        requestCount += 1
        phase = .responding(closeAfter: !keepAlive || requestCount >= policy.maxRequests || isShuttingDown)
        return .dispatch
    }

    /// The parser refused the input: answer `status`, then close (RFC 9112 §9.6 lingering close).
    mutating func parseFailed(status: HTTPStatus, now: Instant) -> Action {
        if case .closed = phase { return .none }
        phase = .writing(closeAfter: true, linger: true)
        return .writeError(status)
    }

    /// The client closed its side (read returned 0). The connection reads only between answers, so the EOF is
    /// seen after every request sent before it (`printf … | nc -N` pipelines, then half-closes, and still reads
    /// every answer): when the parser next needs bytes, they can no longer come. While an answer is going out it
    /// is finished, then the connection closes.
    mutating func peerClosed(now: Instant) -> Action {
        if let last = phaseEndingAfterThisAnswer {
            phase = last
            return .none
        }
        if case .closed = phase { return .none }
        phase = .closed
        return .close
    }

    /// The phase with the answer in flight (being built or written) made the connection's last, or nil when no
    /// answer is in flight: what a peer's EOF and a shutdown both do to a busy connection.
    private var phaseEndingAfterThisAnswer: Phase? {
        switch phase {
        case .responding: .responding(closeAfter: true)
        case .writing(_, let linger): .writing(closeAfter: true, linger: linger)
        case .idle, .readingHead, .readingBody, .lingering, .closed: nil
        }
    }

    // MARK: - Writing

    /// The handler's response, with `bodyBytes` of body, is ready to be written. It is the last one when the request
    /// or a shutdown says so, or when it ends a pipeline that went on too long (then the requests the peer sent
    /// after it are dropped in a lingering close: RFC 9112 §9.3.2 has a pipelining client retry them).
    mutating func responseReady(bodyBytes: Int = 0, now: Instant) -> Action {
        guard case .responding(let closeAfter) = phase else { return .none }
        let endsPipeline = pipelineEnds(afterAnswerOf: bodyBytes)
        let close = closeAfter || isShuttingDown || endsPipeline
        phase = .writing(closeAfter: close, linger: endsPipeline && !closeAfter && !isShuttingDown)
        return .writeResponse(closeAfter: close)
    }

    /// Some output could not be written yet (EAGAIN); the write timeout starts if it is not running.
    mutating func writeBlocked(now: Instant) {
        if writeStalledSince == nil { writeStalledSince = now }
        if sendProgress == nil { sendProgress = SendProgress(started: now, sent: 0) }
    }

    /// `bytes` of output were written but more is pending: the write timeout restarts, and the send rate counts
    /// them once the socket has refused some.
    mutating func writeProgressed(bytes: Int, now: Instant) {
        writeStalledSince = now
        sendProgress?.sent += bytes
    }

    /// Everything queued so far has been written.
    mutating func writeFlushed(now: Instant) -> Action {
        writeStalledSince = nil
        sendProgress = nil
        guard case .writing(let closeAfter, let linger) = phase else { return .none }
        if linger {
            phase = .lingering(until: now + policy.lingerTimeout)
            return .startLingering
        }
        if closeAfter {
            phase = .closed
            return .close
        }
        phase = .idle(since: now)
        return .parseBuffered
    }

    // MARK: - Time and shutdown

    /// A timer fired: enforce whichever deadline has passed.
    mutating func timerFired(now: Instant) -> Action {
        if let stalled = writeStalledSince, now >= stalled + policy.writeTimeout {
            // The client stopped reading; there is nobody to tell.
            phase = .closed
            return .close
        }
        if let progress = sendProgress, now >= sendRateDeadline(progress) {
            // The client reads too slowly to be worth its slot and the kernel memory its answers hold (issue 23).
            phase = .closed
            return .close
        }
        switch phase {
        case .idle(let since) where now >= since + policy.idleTimeout:
            phase = .closed
            return .close
        case .readingHead(let since, _) where now >= since + policy.headerTimeout:
            phase = .writing(closeAfter: true, linger: true)
            return .writeError(.requestTimeout)
        case .readingBody(let body) where now >= bodyDeadline(body):
            phase = .writing(closeAfter: true, linger: true)
            return .writeError(.requestTimeout)
        case .lingering(let until) where now >= until:
            phase = .closed
            return .close
        default:
            return .none
        }
    }

    /// The server is shutting down: idle connections close now, busy ones after their current response.
    mutating func shutdownRequested(now: Instant) -> Action {
        isShuttingDown = true
        if let last = phaseEndingAfterThisAnswer {
            phase = last
            return .none
        }
        guard case .idle = phase else {
            // A request that has begun may still finish (its answer will say Connection: close); the
            // header/body deadlines and the grace period bound how long that can take.
            return .none
        }
        phase = .closed
        return .close
    }

    /// The socket was closed by the connection (force close or an I/O error).
    mutating func closed() {
        phase = .closed
    }

    // MARK: - Making room at the connection cap

    /// The server chose this connection to make room, on seeing `seen` (a handler's standing when one runs). It
    /// closes now, unless it became busy since: a request that arrived meanwhile must not be cut off. A parked
    /// poll is interrupted instead, so its handler answers at once and that answer is the connection's last.
    mutating func evictionRequested(seen: Standing, now: Instant) -> Action {
        switch (standing, seen) {
        case (.handling, .parked):
            phase = .responding(closeAfter: true)
            return .interruptHandler
        case (.handling, .waitingOnUpstream), (.idle, _), (.receiving, _), (.sending, _):
            phase = .closed
            return .close
        default:
            return .none
        }
    }

    /// Whether the request asks to keep the connection open: HTTPCore's `KeepAlive` rule (RFC 9112 §9.3).
    static func wantsKeepAlive(_ head: RequestHead) -> Bool {
        KeepAlive.persists(version: head.version, headers: head.headers)
    }
}
