/// Everything a `Server` can be tuned with. The defaults are the production values of SPEC §8.
public struct ServerConfiguration: Sendable {
    /// The address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`).
    public var host: String
    /// The port to bind; 0 lets the kernel choose (read it back from `Server.port`).
    public var port: Int
    /// At most this many connections are served at once; more are answered 503 and closed.
    public var maxConnections: Int
    /// At most this many connections from one client address; more are answered 503 and closed. nil: a quarter
    /// of `maxConnections` (see `connectionsPerClientLimit`), so one address never holds every slot (issue 8).
    public var maxConnectionsPerClient: Int?
    /// The request parser's size limits.
    public var limits: RequestParser.Limits
    /// The whole request head must arrive within this time of its first byte (slowloris), else 408.
    public var headerTimeout: Duration
    /// The longest pause between two reads of a request body, else 408.
    public var bodyReadTimeout: Duration
    /// The whole request body must arrive within this time of its head, else 408.
    public var bodyTimeout: Duration
    /// Once `bodyRateGracePeriod` has passed, a request body must have arrived at this average rate (bytes per
    /// second), else 408: a body trickled a few bytes at a time would otherwise hold its slot for `bodyTimeout`.
    /// 0 turns the rate check off.
    public var minimumBodyRate: Int
    /// How long a request body may arrive below `minimumBodyRate` before the rate is checked.
    public var bodyRateGracePeriod: Duration
    /// How long a kept-alive connection may sit with no request before it is closed silently.
    public var idleTimeout: Duration
    /// The longest time a response may make no write progress (a client that stopped reading).
    public var writeTimeout: Duration
    /// Once `sendRateGracePeriod` has passed, an answer the socket did not take at once must be read by the peer at
    /// this average rate (bytes per second), else the connection closes: a peer that pipelines requests and reads
    /// a few KiB every 10 s would otherwise hold its slot and the kernel's memory for its answers (issue 23). 0: off.
    public var minimumSendRate: Int
    /// How long an answer may wait on a peer reading below `minimumSendRate` before the rate is checked.
    public var sendRateGracePeriod: Duration
    /// Each client socket's send buffer (`SO_SNDBUF`; the kernel doubles it for its bookkeeping), so the kernel's
    /// autotuning cannot grow it to its limit for a peer that does not read (issue 23: 1024 such peers took 2.1 GB
    /// of TCP memory). nil: the kernel's default.
    public var sendBufferBytes: Int?
    /// Requests served on one connection before it is closed (bounds what one client can hold).
    public var maxRequestsPerConnection: Int
    /// How long `shutdown()` lets in-flight requests finish before closing everything.
    public var shutdownGracePeriod: Duration
    /// After an error response the socket is half-closed and the client's leftover bytes are read and
    /// dropped for at most this long, so the kernel does not answer them with a reset that destroys the
    /// response before the client has read it (the "lingering close" of RFC 9112 §9.6).
    public var lingerTimeout: Duration
    /// The `listen(2)` backlog.
    public var backlog: Int32

    /// Creates a configuration; every parameter has the production default.
    public init(
        host: String = "127.0.0.1", port: Int = 0, maxConnections: Int = 1024, maxConnectionsPerClient: Int? = nil,
        limits: RequestParser.Limits = RequestParser.Limits(), headerTimeout: Duration = .seconds(10),
        bodyReadTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), minimumBodyRate: Int = 1024,
        bodyRateGracePeriod: Duration = .seconds(5), idleTimeout: Duration = .seconds(10),
        writeTimeout: Duration = .seconds(30), minimumSendRate: Int = 1024, sendRateGracePeriod: Duration = .seconds(5),
        sendBufferBytes: Int? = 32 * 1024, maxRequestsPerConnection: Int = 1000,
        shutdownGracePeriod: Duration = .seconds(10), lingerTimeout: Duration = .seconds(1), backlog: Int32 = 1024
    ) {
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.bodyTimeout = bodyTimeout
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateGracePeriod = bodyRateGracePeriod
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.minimumSendRate = minimumSendRate
        self.sendRateGracePeriod = sendRateGracePeriod
        self.sendBufferBytes = sendBufferBytes
        self.maxRequestsPerConnection = maxRequestsPerConnection
        self.shutdownGracePeriod = shutdownGracePeriod
        self.lingerTimeout = lingerTimeout
        self.backlog = backlog
    }

    /// The per-address connection limit in force: `maxConnectionsPerClient`, or a quarter of `maxConnections`.
    ///
    /// With the default cap of 1024 that is 256, exactly what `Benchmarks/http.sh` opens from loopback at its
    /// highest concurrency: a limit of N admits N connections from one address, and a closed connection stops
    /// counting before its socket is closed, so wrk's reconnects never find the slot still taken.
    public var connectionsPerClientLimit: Int {
        max(1, maxConnectionsPerClient ?? maxConnections / 4)
    }
}
