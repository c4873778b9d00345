import Glibc

/// How many connections the process's open-file limit allows (issue 46). Each connection is a file descriptor; past
/// the limit `accept` fails, and so does whatever else needs a descriptor (libdispatch trapped when 50 000 viewers met a
/// limit of 20 000). So the cap is kept below the limit, where the server makes room or answers 503 as designed.
public enum FileDescriptorLimit {
    /// Descriptors kept for everything but client connections: the listeners, the event loops' epoll and event
    /// descriptors, the upstream's connections, the settings and cache files.
    public static let reserve = 512

    /// `connections`, or fewer when the open-file limit cannot hold them and `reserve` more: the soft limit is raised
    /// as far as the hard limit allows first (the systemd unit sets both with `LimitNOFILE`).
    public static func connections(for connections: Int) -> Int {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return connections }
        let wanted = rlim_t(clamping: connections + reserve)
        if limit.rlim_cur < wanted, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(resource, &limit) != 0 { _ = getrlimit(resource, &limit) }
        }
        return max(1, min(connections, Int(clamping: limit.rlim_cur) - reserve))
    }
}
