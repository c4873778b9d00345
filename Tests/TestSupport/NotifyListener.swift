import Foundation
import Glibc
import Timing

/// A service manager's notify socket, as a test's own: an AF_UNIX datagram socket bound in a temporary directory
/// whose path goes in `NOTIFY_SOCKET` (no systemd needed). Invariant: `fd` is only read by one `next` at a time.
public final class NotifyListener: @unchecked Sendable {
    /// The socket's path, for `NOTIFY_SOCKET`.
    public let path: String
    private let fd: Int32

    /// Binds a fresh socket.
    public init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))")
            .path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram's text, or nil when none arrives within `timeout` (a hang guard, not a timing claim).
    public func next(timeout: Duration = .seconds(60)) async -> String? {
        let fd = fd
        return await onOwnThread { () -> String? in
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(clamping: timeout.wholeMilliseconds)) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
        }
    }
}
