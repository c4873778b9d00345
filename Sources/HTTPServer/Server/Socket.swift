import CLinux
import Glibc

/// Thin wrappers over the socket calls the server makes, so `Server` and `Connection` read as policy.
enum Socket {
    /// A system call failed; `errno` is kept for the message.
    struct Failure: Error, CustomStringConvertible {
        /// What was being done, e.g. "bind 127.0.0.1:8080".
        var operation: String
        /// The errno value.
        var code: Int32
        /// e.g. "bind 127.0.0.1:8080: Address already in use (errno 98)".
        var description: String { "\(operation): \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Creates a non-blocking listening socket bound to `host:port`.
    static func listen(host: String, port: Int, backlog: Int32) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(operation: "resolve \(host): \(String(cString: gai_strerror(status)))", code: EINVAL)
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "socket", code: errno) }
        var one: Int32 = 1
        // SO_REUSEADDR: a restarted server can bind while old connections sit in TIME_WAIT.
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "bind \(host):\(port)", code: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "listen \(host):\(port)", code: code)
        }
        setNonBlocking(fd)
        return fd
    }

    /// Sets O_NONBLOCK.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Disables Nagle: a response is written in one call, and waiting for an ACK only adds latency.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Fixes the socket's send buffer at `bytes` (which also turns off the kernel's autotuning of it).
    static func setSendBuffer(_ fd: Int32, bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The local port of a bound socket.
    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return 0 }
        return port(of: storage)
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket; returns the fd, the peer as logs show it
    /// (`127.0.0.1:51234`) and its address, or the errno.
    static func accept(_ listenFD: Int32) -> Result<(fd: Int32, peer: String, address: IPAddress?), Failure> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        // accept4 (from CLinux): the flags come with the socket, no fcntl calls and no window for a fork.
        let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept4(listenFD, $0, &length, flags) }
        }
        guard fd >= 0 else { return .failure(Failure(operation: "accept", code: errno)) }
        return .success((fd: fd, peer: describe(storage), address: IPAddress(socketAddress: storage)))
    }

    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return 0
        }
    }

    private static func cString(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                }
            }
            return "\(cString(text)):\(port(of: storage))"
        case AF_INET6:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                }
            }
            return "[\(cString(text))]:\(port(of: storage))"
        default:
            return "unknown"
        }
    }
}
