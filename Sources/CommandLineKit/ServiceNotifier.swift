import Glibc
import Logging
import Synchronization
import Timing

/// Sends sd_notify(3) datagrams (`READY=1`, `STOPPING=1`, `WATCHDOG=1`) to the socket a `ServiceNotification`
/// names, and pets the watchdog on a timer of its own. Without `NOTIFY_SOCKET` there is no notifier, so a process not
/// run by systemd does nothing.
///
/// Invariant: `fd` is set once in `init` and closed in `deinit`; the watchdog's timer is only touched under its lock.
public final class ServiceNotifier: @unchecked Sendable {
    /// Where the datagrams go and the watchdog interval.
    public let target: ServiceNotification
    private let fd: Int32
    private let clock: any TimeSource
    private let timer = Mutex<Task<Void, Never>?>(nil)

    /// A notifier for `target`, its watchdog on `clock`; nil when no datagram socket can be made.
    public init?(_ target: ServiceNotification, clock: any TimeSource = SystemTimeSource()) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.target = target
        self.clock = clock
    }

    /// The notifier of this process's environment, or nil when it is not run by a service manager.
    public static func fromEnvironment(_ environment: [String: String]) -> ServiceNotifier? {
        ServiceNotification(environment: environment, pid: getpid()).flatMap { ServiceNotifier($0) }
    }

    deinit {
        timer.withLock { $0?.cancel() }
        close(fd)
    }

    /// Sends `message` as one datagram; true when the socket took it. A failure is not fatal: the service manager
    /// then decides on its own (a start timeout, a missed watchdog). With `wait` false a full socket drops the
    /// message instead of blocking: what the watchdog does, since pets systemd has not read yet make another one
    /// pointless, and a timer blocked in `sendto` would hold up `stopping()` (a test whose socket filled up hung so).
    @discardableResult
    public func send(_ message: String, wait: Bool = true) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(target.socketPath.utf8)
        // An abstract socket's name starts with a NUL byte, which its `@` stands for; its length is exact.
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.prefix(bytes.count - 1))
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let sent = message.utf8CString.withUnsafeBufferPointer { text in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(
                        fd, text.baseAddress, text.count - 1, Int32(MSG_NOSIGNAL) | (wait ? 0 : Int32(MSG_DONTWAIT)),
                        socketAddress, length)
                }
            }
        }
        return sent == message.utf8.count
    }

    /// Sends `READY=1` and, with a watchdog, starts sending `WATCHDOG=1` every `watchdogInterval`.
    public func ready() {
        send(ServiceNotification.ready)
        guard let interval = target.watchdogInterval else { return }
        let pets = clock.every(interval) { [weak self] in self?.send(ServiceNotification.watchdog, wait: false) }
        timer.withLock { timer in
            timer?.cancel()
            timer = pets
        }
    }

    /// Sends `STOPPING=1` and stops the watchdog.
    public func stopping() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        send(ServiceNotification.stopping)
    }
}
