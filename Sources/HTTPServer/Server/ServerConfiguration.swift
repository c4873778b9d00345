/// Everything a `Server` can be tuned with. The defaults are the production values of SPEC §8.
public struct ServerConfiguration: Sendable {
    /// The address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`).
    public var host: String
    /// The port to bind; 0 lets the kernel choose (read it back from `Server.port`).
    public var port: Int
    /// At most this many connections are served at once; at the cap one is closed to make room (`Eviction`), or
    /// the newcomer is answered 503. The default holds 50 000 live viewers (issue 46); the process needs as many
    /// file descriptors and a few hundred more (the systemd unit's `LimitNOFILE`).
    public var maxConnections: Int
    /// At most this many connections from one client address; more are answered 503 and closed. nil: a quarter
    /// of `maxConnections` up to 256 (see `connectionsPerClientLimit`), so one address never holds every slot.
    public var maxConnectionsPerClient: Int?
    /// Whether a peer is a proxy whose `X-Forwarded-For` names the client (nil: none is). A trusted proxy's
    /// connections are not limited per address, only by the cap, and each counts under the client of the request it
    /// carries last (`ForwardedClient`), so the cap's eviction takes from the largest real client (issue 46).
    public var trustedProxy: (@Sendable (IPAddress) -> Bool)?
    /// The request parser's size limits.
    public var limits: RequestParser.Limits
    /// The deadlines, rates and request caps of every connection (`ConnectionState` enforces them).
    public var connection: ConnectionPolicy
    /// Each client socket's send buffer (`SO_SNDBUF`; the kernel doubles it for its bookkeeping), so the kernel's
    /// autotuning cannot grow it to its limit for a peer that does not read (issue 23: 1024 such peers took 2.1 GB
    /// of TCP memory). nil: the kernel's default.
    public var sendBufferBytes: Int?
    /// How long `shutdown()` lets in-flight requests finish before closing everything.
    public var shutdownGracePeriod: Duration
    /// The `listen(2)` backlog.
    public var backlog: Int32

    /// Creates a configuration; every parameter has the production default.
    public init(
        host: String = "127.0.0.1", port: Int = 0, maxConnections: Int = 64_000, maxConnectionsPerClient: Int? = nil,
        trustedProxy: (@Sendable (IPAddress) -> Bool)? = nil, limits: RequestParser.Limits = RequestParser.Limits(),
        connection: ConnectionPolicy = ConnectionPolicy(),
        sendBufferBytes: Int? = 32 * 1024, shutdownGracePeriod: Duration = .seconds(10), backlog: Int32 = 1024
    ) {
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.trustedProxy = trustedProxy
        self.limits = limits
        self.connection = connection
        self.sendBufferBytes = sendBufferBytes
        self.shutdownGracePeriod = shutdownGracePeriod
        self.backlog = backlog
    }

    /// The per-address connection limit in force: `maxConnectionsPerClient`, or a quarter of `maxConnections` up to
    /// 256.
    ///
    /// 256 is exactly what `Benchmarks/http.sh` opens from loopback at its highest concurrency (a limit of N admits N
    /// connections from one address, and a closed connection stops counting before its socket is closed, so wrk's
    /// reconnects never find the slot still taken), and above the 196 live viewers per address of
    /// `Benchmarks/viewers.sh` at 50 000 viewers from 256 addresses.
    public var connectionsPerClientLimit: Int {
        max(1, maxConnectionsPerClient ?? min(256, maxConnections / 4))
    }

    /// Whether `client` is a trusted proxy (`trustedProxy`).
    func isTrustedProxy(_ client: IPAddress?) -> Bool {
        guard let client, let trustedProxy else { return false }
        return trustedProxy(client)
    }
}
