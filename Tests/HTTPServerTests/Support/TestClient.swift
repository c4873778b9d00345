import Foundation
import Glibc
import HTTPCore
import Logging
import TestSupport

@testable import HTTPServer

/// A response as a test client read it off the wire.
struct WireResponse {
    /// The status code.
    var status: Int
    /// The header fields in order.
    var headers: HTTPHeaders
    /// The body bytes.
    var body: [UInt8]
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback client for live tests: raw bytes out, raw bytes in, with a receive timeout so a
/// test can never hang on a server bug.
///
/// Reads block, so they run on a thread of their own: blocking the cooperative pool (two threads here)
/// would starve the server's handler tasks, which run on that same pool.
/// Invariant (`@unchecked Sendable`): one test uses a client, one call at a time.
final class TestClient: @unchecked Sendable {
    /// What a read saw at the end of the stream.
    enum End: Error, Equatable {
        /// Orderly close (read returned 0).
        case closed
        /// The connection was reset.
        case reset
        /// Nothing arrived within the receive timeout.
        case timedOut
    }

    let fd: Int32
    private var buffered: [UInt8] = []

    /// Connects to `127.0.0.1:port` from `source` (another loopback address such as `127.0.0.2` poses as a
    /// second client); `timeout` bounds every read. It is a hang guard only (no test waits for it to pass), so it
    /// sits far above anything a loaded machine takes.
    init(port: Int, source: String? = nil, timeout: Double = 30) throws {
        // The descriptor is stored only once connected. A throwing class init that had already stored it would run
        // `deinit` too, closing the number a second time: by then another test's socket may own it (that double
        // close made ServerTests flake, with a client of a parallel test cut off mid-conversation).
        fd = try Self.connected(port: port, source: source, timeout: timeout)
    }

    private static func connected(port: Int, source: String?, timeout: Double) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            try call(fd, host: source, port: 0, "bind \(source)") { bind($0, $1, $2) }
        }
        try call(fd, host: "127.0.0.1", port: port, "connect 127.0.0.1:\(port)") { connect($0, $1, $2) }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// `operation` (bind or connect) on `fd` with the IPv4 address `host`:`port`; on failure closes `fd` and throws,
    /// naming the call `name`.
    private static func call(
        _ fd: Int32, host: String, port: Int, _ name: String,
        _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                operation(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw Socket.Failure(operation: name, code: code)
        }
    }

    deinit { close(fd) }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Socket.Failure(operation: "send", code: errno) }
            offset += sent
        }
    }

    /// Reads one response; `bodyExpected: false` for answers to HEAD (Content-Length without a body).
    func readResponse(bodyExpected: Bool = true) async throws -> WireResponse {
        try await onOwnThread { try self.readResponseBlocking(bodyExpected: bodyExpected) }
    }

    /// Reads until the server closes (or resets, or the timeout passes); returns the bytes and how it ended.
    func readToEnd() async -> (bytes: [UInt8], end: End) {
        await onOwnThread { self.readToEndBlocking() }
    }

    /// `readResponse` on the calling thread (which it blocks).
    func readResponseBlocking(bodyExpected: Bool) throws -> WireResponse {
        let headEnd = try fill { buffered.firstRange(of: [13, 10, 13, 10])?.upperBound }
        let head = String(decoding: buffered[..<headEnd], as: UTF8.self)
        buffered.removeFirst(headEnd)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Socket.Failure(operation: "bad status line '\(statusLine)'", code: EPROTO)
        }
        var headers = HTTPHeaders()
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers.add(name: String(parts[0]), value: parts[1].trimmingCharacters(in: .whitespaces))
        }
        var body: [UInt8] = []
        if bodyExpected, status >= 200, status != 204, status != 304,
            let length = headers["Content-Length"].flatMap(Int.init)
        {
            _ = try fill { buffered.count >= length ? length : nil }
            body = Array(buffered[..<length])
            buffered.removeFirst(length)
        }
        return WireResponse(status: status, headers: headers, body: body)
    }

    /// `readToEnd` on the calling thread (which it blocks).
    func readToEndBlocking() -> (bytes: [UInt8], end: End) {
        var bytes = buffered
        buffered = []
        while true {
            switch readChunk() {
            case .success(let chunk): bytes += chunk
            case .failure(let end): return (bytes, end)
            }
        }
    }

    /// Half-closes our side (the server sees EOF).
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    private func fill(until done: () -> Int?) throws -> Int {
        while true {
            if let result = done() { return result }
            switch readChunk() {
            case .success(let chunk): buffered += chunk
            case .failure(let end): throw Socket.Failure(operation: "read ended: \(end)", code: EPIPE)
            }
        }
    }

    private func readChunk() -> Result<[UInt8], End> {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .success(Array(chunk[..<count])) }
        if count == 0 { return .failure(.closed) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .failure(.timedOut) }
        return .failure(.reset)
    }
}

/// Starts a server on 127.0.0.1:0 for one test and shuts it down afterwards.
enum LiveServer {
    /// The server's defaults with every deadline far above anything a test waits for, so that a test starved of
    /// CPU (CPU-heavy suites running beside it on a loaded 2-core machine held both cooperative threads for over
    /// 10 s) never sees its idle or half-sent connection closed. A test about a deadline sets that one short.
    static var patientConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.connection.headerTimeout = .seconds(300)
        configuration.connection.bodyReadTimeout = .seconds(300)
        configuration.connection.idleTimeout = .seconds(300)
        configuration.connection.writeTimeout = .seconds(300)
        configuration.connection.bodyTimeout = .seconds(300)
        configuration.connection.minimumBodyRate = 0
        configuration.connection.minimumSendRate = 0
        return configuration
    }

    /// Returns once `condition` holds, checking every few milliseconds; throws after `limit`, a hang guard far
    /// above any expected wait (for states a test cannot observe from its socket, such as "the server has
    /// seen this connection go idle").
    static func until(
        _ what: String, limit: Duration = .seconds(30), _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw Socket.Failure(operation: "waiting for \(what)", code: ETIMEDOUT)
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Runs `body` with a started server answering through `responder`.
    static func with(
        _ configuration: ServerConfiguration = LiveServer.patientConfiguration, responder: some HTTPResponder,
        logger: Logger = .silent, answerEpoch: AnswerEpoch? = nil, _ body: (Server) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = Server(
            configuration: configuration, responder: responder, logger: logger, answerEpoch: answerEpoch)
        try server.start()
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// A router with the handlers the live tests use.
    static var testRouter: Router {
        var router = Router()
        router.get("/") { _, _ in .text("home") }
        router.get("/echo/:word") { _, context in .text(try context.parameters.require("word")) }
        router.post("/upload") { request, _ in .text("got \(request.body.count) bytes") }
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .milliseconds(300))
            return .text("slow")
        }
        router.get("/boom") { _, _ in throw CocoaError(.fileNoSuchFile) }
        return router
    }
}
