import Timing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP socket with deadline-bounded blocking helpers (`poll` between attempts).
///
/// The helpers block the calling thread, so they run only on `SocketTransport`'s Dispatch queue, never on Swift
/// concurrency's cooperative threads. Owned by one thread at a time: the pool hands it over under its lock.
struct Socket: Sendable {
    /// The file descriptor.
    let fd: Int32

    /// The monotonic clock every deadline of the client is on.
    static func now() -> ContinuousClock.Instant { SystemTimeSource().now }

    /// Connects to `host:port`, trying each resolved address, each bounded by `deadline`.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(HabitsAPIError) -> Socket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .transport("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                    | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = "socket: \(errnoText())"
                continue
            }
            let socket = Socket(fd: fd)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                socket.configure()
                return socket
            }
            guard errno == EINPROGRESS else {
                lastError = "connect to \(host):\(port): \(errnoText())"
                socket.close()
                continue
            }
            do throws(HabitsAPIError) {
                try socket.wait(for: Int16(POLLOUT), deadline: deadline, what: "connect to \(host):\(port)")
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else {
                    throw .transport("connect to \(host):\(port): \(String(cString: strerror(error)))")
                }
                socket.configure()
                return socket
            } catch {
                socket.close()
                if case .transport(let detail) = error { lastError = detail }
            }
        }
        throw .transport(lastError)
    }

    /// Small requests and responses: send each at once instead of waiting for Nagle's algorithm.
    private func configure() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes every byte before `deadline`.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(HabitsAPIError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(for: Int16(POLLOUT), deadline: deadline, what: "send")
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw .transport("send: \(Self.errnoText())")
            }
        }
    }

    /// Reads some bytes into `buffer` before `deadline`; 0 means the peer closed.
    func read(into buffer: inout [UInt8], deadline: ContinuousClock.Instant) throws(HabitsAPIError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), deadline: deadline, what: "response")
            } else if errno != EINTR {
                throw .transport("recv: \(Self.errnoText())")
            }
        }
    }

    /// True when an idle connection has something to read: EOF, a reset or stray bytes. Either way it is unusable.
    var isReadableWhileIdle: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    /// Closes the descriptor.
    func close() { _ = Glibc.close(fd) }

    private func wait(for events: Int16, deadline: ContinuousClock.Instant, what: String) throws(HabitsAPIError) {
        switch DeadlinePoll.wait(fd: fd, events: events, until: deadline, now: Self.now) {
        case .ready: return
        case .timedOut: throw .transport("timed out waiting for \(what)")
        case .failed: throw .transport("poll: \(Self.errnoText())")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
    private func errnoText() -> String { Self.errnoText() }
}
