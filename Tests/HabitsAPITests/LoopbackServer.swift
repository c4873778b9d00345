import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1:0 for the client's tests and benchmark: one thread per connection,
/// keep-alive, canned answers from a handler. Deliberately naive; the product's server is another module.
final class LoopbackServer: Sendable {
    /// One request as received.
    struct Received: Sendable, Equatable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: [UInt8]
    }

    /// What to do with one request.
    enum Reply: Sendable {
        /// Send these bytes; close afterwards when `close` is true.
        case bytes([UInt8], close: Bool)
        /// Never answer (the client must time out).
        case silence
        /// Send these parts with `pause` between them (an answer that arrives slowly but keeps arriving).
        case paced([[UInt8]], pause: TimeInterval)
    }

    let port: Int
    private let listener: Int32
    private let handler: @Sendable (Received) -> Reply
    private let log = Mutex<[Received]>([])
    private let connections = Atomic<Int>(0)

    /// Every request received so far.
    var received: [Received] { log.withLock { $0 } }
    /// How many connections were accepted.
    var connectionCount: Int { connections.load(ordering: .relaxed) }

    init(handler: @escaping @Sendable (Received) -> Reply) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            close(listener)
            throw LoopbackError.setup
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting (connections already open finish on their own).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    /// A JSON 200 answer.
    static func json(_ body: [UInt8], close: Bool = false, extraHeaders: String = "") -> Reply {
        .bytes(
            Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\(extraHeaders)\r\n"
                    .utf8)
                + body, close: close)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            connections.add(1, ordering: .relaxed)
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            guard let headEnd = Self.find(Array("\r\n\r\n".utf8), in: buffer) else {
                let count = recv(fd, &chunk, chunk.count, 0)
                if count <= 0 { return }
                buffer += chunk[0..<count]
                continue
            }
            let head = String(decoding: buffer[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = head[0].split(separator: " ")
            var headers: [String: String] = [:]
            for line in head.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 {
                    headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while buffer.count < headEnd + 4 + length {
                let count = recv(fd, &chunk, chunk.count, 0)
                if count <= 0 { return }
                buffer += chunk[0..<count]
            }
            let body = Array(buffer[(headEnd + 4)..<(headEnd + 4 + length)])
            buffer.removeFirst(headEnd + 4 + length)
            let request = Received(
                method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
            log.withLock { $0.append(request) }
            switch handler(request) {
            case .silence:
                while recv(fd, &chunk, chunk.count, 0) > 0 {}
                return
            case .bytes(let bytes, let close):
                guard Self.sendAll(bytes, to: fd) else { return }
                if close { return }
            case .paced(let parts, let pause):
                for (index, part) in parts.enumerated() {
                    if index > 0 { Thread.sleep(forTimeInterval: pause) }
                    guard Self.sendAll(part, to: fd) else { return }
                }
            }
        }
    }

    /// Sends every byte; false when the peer went away.
    private static func sendAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

/// The loopback server could not bind.
enum LoopbackError: Error { case setup }
