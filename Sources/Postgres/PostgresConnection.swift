import CLibPQ
import Dispatch
import Glibc
import Synchronization
import Timing

/// One libpq session, driven through libpq's non-blocking calls (`PQconnectStartParams`/`PQconnectPoll`,
/// `PQsendQueryParams`, `PQflush`, `PQconsumeInput`/`PQisBusy`) with `poll(2)` on its socket bounded by a deadline.
///
/// Why a queue of its own and not an event loop: libpq does its own reads and writes (and, for a host name, a
/// blocking DNS lookup inside `PQconnectStartParams`), so its calls run on this connection's serial Dispatch queue,
/// never on an HTTP event loop or the cooperative pool; the only wait is `poll` with the time left before the
/// deadline. A statement that passes its deadline (a server that accepts but never answers, a SIGSTOPped one) ends in
/// `PostgresError.timedOut` and the session is closed, so nothing waits twice on it.
///
/// Invariant: `handle` is read and written only on `queue`; `isOpen` mirrors it under a lock for the pool.
public final class PostgresConnection: @unchecked Sendable {
    private let queue = DispatchQueue(label: "postgres.connection")
    private var handle: OpaquePointer?
    private let open = Mutex(true)
    private let lease = Mutex((sent: 0, diedIdle: false))
    private let clock: any TimeSource
    private let libpq: LibPQ

    private init(handle: OpaquePointer, clock: any TimeSource, libpq: LibPQ) {
        self.handle = handle
        self.clock = clock
        self.libpq = libpq
    }

    deinit {
        if let handle { libpq.finish(handle) }
    }

    /// Whether the session is still usable (false once a statement lost it, timed out, or `close` ran).
    public var isOpen: Bool { open.withLock { $0 } }

    /// Whether, on the current lease, the session was found dead before its first statement was sent: nothing of
    /// the lease reached the server, so running it again elsewhere is safe whatever it was.
    public var diedIdle: Bool { lease.withLock { $0.diedIdle } }

    /// Starts a lease (the pool lends the connection to a new caller).
    func beginLease() { lease.withLock { $0 = (0, false) } }

    /// Opens a session to `url`, or throws `.connect` / `.timedOut` at `deadline`.
    public static func connect(
        to url: DatabaseURL, deadline: ContinuousClock.Instant, clock: any TimeSource
    ) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "postgres.connect")
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result { try PostgresConnection.startAndPoll(url, deadline: deadline, clock: clock) })
            }
        }
    }

    /// Runs `statement` and returns its rows; throws `PostgresError` (the session is closed unless it is `.server`).
    public func run(_ statement: Statement, deadline: ContinuousClock.Instant) async throws -> QueryResult {
        try await onQueue { connection in try connection.execute(statement, deadline: deadline) }
    }

    /// Waits until `deadline` for notifications (`LISTEN`); returns those that came (none is not an error).
    public func notifications(until deadline: ContinuousClock.Instant) async throws -> [Notification] {
        try await onQueue { connection in try connection.awaitNotifications(until: deadline) }
    }

    /// Closes the session (idempotent). A statement running on it finishes or fails first: the queue is serial.
    public func close() {
        open.withLock { $0 = false }
        queue.async { self.finish() }
    }

    // MARK: - On the queue

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try work(self) }
                if case .failure(let error as PostgresError) = result, error.dropsConnection { self.finish() }
                continuation.resume(with: result)
            }
        }
    }

    private func finish() {
        open.withLock { $0 = false }
        if let handle { libpq.finish(handle) }
        handle = nil
    }

    private func live() throws -> OpaquePointer {
        guard let handle, libpq.status(handle) == CONNECTION_OK else { throw PostgresError.connectionLost("closed") }
        return handle
    }

    private static func startAndPoll(
        _ url: DatabaseURL, deadline: ContinuousClock.Instant, clock: any TimeSource
    ) throws -> PostgresConnection {
        let libpq = try LibPQ.loader.load()
        let keys = url.parameters.map { strdup($0.key) } + [nil]
        let values = url.parameters.map { strdup($0.value) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        let started = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { keyPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                libpq.connectStartParams(keyPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let handle = started else { throw PostgresError.connect("out of memory") }
        let connection = PostgresConnection(handle: handle, clock: clock, libpq: libpq)
        guard libpq.status(handle) != CONNECTION_BAD else { throw PostgresError.connect(connection.errorText(handle)) }
        // libpq: behave as if PQconnectPoll had last said "writing", then follow what each call says.
        var status = PGRES_POLLING_WRITING
        while status != PGRES_POLLING_OK {
            switch status {
            case PGRES_POLLING_READING: try connection.waitFor(read: true, deadline: deadline)
            case PGRES_POLLING_WRITING: try connection.waitFor(read: false, deadline: deadline)
            case PGRES_POLLING_FAILED: throw PostgresError.connect(connection.errorText(handle))
            default: break
            }
            status = libpq.connectPoll(handle)
        }
        guard libpq.setNonblocking(handle, 1) == 0 else { throw PostgresError.connect(connection.errorText(handle)) }
        return connection
    }

    private func execute(_ statement: Statement, deadline: ContinuousClock.Instant) throws -> QueryResult {
        let handle = try live()
        // An idle session the server closed (a restart) has its EOF or termination notice waiting: find it before
        // sending, so the caller knows the statement never left.
        var idle = pollfd(fd: libpq.socket(handle), events: Int16(POLLIN), revents: 0)
        if poll(&idle, 1, 0) > 0, libpq.consumeInput(handle) == 0 || libpq.status(handle) != CONNECTION_OK {
            lease.withLock { if $0.sent == 0 { $0.diedIdle = true } }
            throw lostOrError(handle)
        }
        lease.withLock { $0.sent += 1 }
        let values = statement.parameters.map { $0.map { strdup($0) } ?? nil }
        defer { values.forEach { free($0) } }
        let sent = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
            libpq.sendQueryParams(
                handle, statement.sql, Int32(values.count), nil, pointers.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw lostOrError(handle) }
        try flush(handle, deadline: deadline)
        var answer = QueryResult()
        var failure: PostgresError?
        while true {
            try readUntilIdle(handle, deadline: deadline)
            guard let result = libpq.getResult(handle) else { break }
            defer { libpq.clear(result) }
            let status = libpq.resultStatus(result)
            if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                answer = rows(of: result)
            } else if failure == nil {
                failure = serverError(result)
            }
        }
        guard libpq.status(handle) == CONNECTION_OK else { throw PostgresError.connectionLost(errorText(handle)) }
        if let failure { throw failure }
        return answer
    }

    private func awaitNotifications(until deadline: ContinuousClock.Instant) throws -> [Notification] {
        let handle = try live()
        var found = drainNotifications(handle)
        if found.isEmpty {
            do {
                try waitFor(read: true, deadline: deadline)
            } catch PostgresError.timedOut {
                return []  // a quiet channel: the wait's end is no failure
            }
            guard libpq.consumeInput(handle) == 1 else { throw lostOrError(handle) }
            found = drainNotifications(handle)
        }
        guard libpq.status(handle) == CONNECTION_OK else { throw PostgresError.connectionLost(errorText(handle)) }
        return found
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [Notification] {
        var found: [Notification] = []
        while let note = libpq.notifies(handle) {
            found.append(
                Notification(
                    channel: String(cString: note.pointee.relname), payload: String(cString: note.pointee.extra)))
            libpq.freemem(note)
        }
        return found
    }

    /// PQflush until the whole statement is out; input that arrives meanwhile is consumed (libpq's advice: the
    /// server may be blocked writing to us, notifications for instance).
    private func flush(_ handle: OpaquePointer, deadline: ContinuousClock.Instant) throws {
        while true {
            switch libpq.flush(handle) {
            case 0: return
            case 1:
                try waitFor(read: true, write: true, deadline: deadline)
                guard libpq.consumeInput(handle) == 1 else { throw lostOrError(handle) }
            default: throw lostOrError(handle)
            }
        }
    }

    private func readUntilIdle(_ handle: OpaquePointer, deadline: ContinuousClock.Instant) throws {
        while libpq.isBusy(handle) == 1 {
            try waitFor(read: true, deadline: deadline)
            guard libpq.consumeInput(handle) == 1 else { throw lostOrError(handle) }
        }
    }

    /// Polls the socket until it is ready, or throws `.timedOut` at the deadline.
    private func waitFor(read: Bool, write: Bool = false, deadline: ContinuousClock.Instant) throws {
        guard let handle else { throw PostgresError.connectionLost("closed") }
        let events = Int16(read ? POLLIN : 0) | Int16(write || !read ? POLLOUT : 0)
        let fd = libpq.socket(handle)
        guard fd >= 0 else { throw PostgresError.connectionLost("no socket") }
        switch DeadlinePoll.wait(fd: fd, events: events, until: deadline, now: { clock.now }) {
        case .ready: return
        case .timedOut: throw PostgresError.timedOut
        case .failed(let errno): throw PostgresError.connectionLost("poll failed (errno \(errno))")
        }
    }

    private func lostOrError(_ handle: OpaquePointer) -> PostgresError {
        PostgresError.connectionLost(errorText(handle))
    }

    private func errorText(_ handle: OpaquePointer) -> String {
        guard let text = libpq.errorMessage(handle) else { return "unknown error" }
        return String(cString: text).trimmingTrailingNewlines
    }

    private func serverError(_ result: OpaquePointer) -> PostgresError {
        let state = libpq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "XX000"
        let message = libpq.resultErrorMessage(result).map { String(cString: $0) } ?? ""
        return .server(sqlState: state, message: message.trimmingTrailingNewlines)
    }

    private func rows(of result: OpaquePointer) -> QueryResult {
        // libpq answers NULL only for a column or row out of range, which these loops never ask for.
        let text = { (pointer: UnsafeMutablePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        let columnCount = libpq.fieldCount(result)
        let rowCount = libpq.tupleCount(result)
        let columns = (0..<columnCount).map { text(libpq.fieldName(result, $0)) }
        let rows = (0..<rowCount).map { row in
            (0..<columnCount).map { column -> String? in
                libpq.getIsNull(result, row, column) == 1 ? nil : text(libpq.getValue(result, row, column))
            }
        }
        let affected = Int(text(libpq.commandTuples(result))) ?? 0
        return QueryResult(columns: columns, rows: rows, affectedRows: affected)
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
