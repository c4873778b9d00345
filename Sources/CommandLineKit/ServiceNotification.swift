/// What systemd's notify protocol (sd_notify(3), `Type=notify` units) asks of this process, read from its
/// environment: where to send the state datagrams, and how often to pet the watchdog. A pure value; `ServiceNotifier`
/// sends.
public struct ServiceNotification: Equatable, Sendable {
    /// The socket's path (`/run/systemd/notify`), or an abstract name written with a leading `@`.
    public var socketPath: String
    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3) advises; nil without a
    /// watchdog (or one meant for another process, `WATCHDOG_PID`).
    public var watchdogInterval: Duration?

    /// The service is up: it listens and has data to show.
    public static let ready = "READY=1"
    /// The service has begun to stop.
    public static let stopping = "STOPPING=1"
    /// The service is alive.
    public static let watchdog = "WATCHDOG=1"

    /// Creates a notification target.
    public init(socketPath: String, watchdogInterval: Duration? = nil) {
        self.socketPath = socketPath
        self.watchdogInterval = watchdogInterval
    }

    /// The target `environment` names for process `pid`; nil when `NOTIFY_SOCKET` is unset, empty or not an absolute
    /// path or abstract name (not run by a service manager: nothing to send).
    public init?(environment: [String: String], pid: Int32) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"), path.utf8.count > 1,
            path.utf8.count < 108  // sockaddr_un.sun_path
        else { return nil }
        var interval: Duration?
        if let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true
        {
            interval = .microseconds(Int64(clamping: microseconds / 2))
        }
        self.init(socketPath: path, watchdogInterval: interval)
    }
}
