/// The limits a connection's state machine enforces (`ConnectionState.Policy`): its deadlines, rates and request
/// caps. `ServerConfiguration.connection` holds the one copy; the defaults are the production values of SPEC §8.
public struct ConnectionPolicy: Sendable, Equatable {
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
    /// How long a request body may arrive below `minimumBodyRate` before the rate is checked (a slow start, a
    /// stalled first packet).
    public var bodyRateGracePeriod: Duration
    /// How long a kept-alive connection may sit with no request before it is closed silently.
    public var idleTimeout: Duration
    /// The longest time a response may make no write progress (a client that stopped reading).
    public var writeTimeout: Duration
    /// After an error response the socket is half-closed and the client's leftover bytes are read and dropped for at
    /// most this long, so the kernel does not answer them with a reset that destroys the response before the client
    /// has read it (the "lingering close" of RFC 9112 §9.6).
    public var lingerTimeout: Duration
    /// Requests served on one connection before it is closed (bounds what one client can hold).
    public var maxRequests: Int
    /// Once `sendRateGracePeriod` has passed, an answer the socket did not take at once must be read by the peer at
    /// this average rate (bytes per second), else the connection closes: a peer that pipelines requests and reads
    /// a few KiB every 10 s would otherwise hold its slot and the kernel's memory for its answers (issue 23). 0: off.
    public var minimumSendRate: Int
    /// How long an answer may wait on a peer reading below `minimumSendRate` before the rate is checked.
    public var sendRateGracePeriod: Duration
    /// The pipelining bound (`ConnectionState+Pipelining.swift`): body bytes answered one after another without
    /// the connection waiting for its peer; the answer that reaches it is the connection's last.
    public var maxPipelinedBytes: Int

    /// Creates a policy; every parameter has the production default.
    public init(
        headerTimeout: Duration = .seconds(10), bodyReadTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30), minimumBodyRate: Int = 1024, bodyRateGracePeriod: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(10), writeTimeout: Duration = .seconds(30),
        lingerTimeout: Duration = .seconds(1), maxRequests: Int = 1000, minimumSendRate: Int = 1024,
        sendRateGracePeriod: Duration = .seconds(5), maxPipelinedBytes: Int = 128 * 1024
    ) {
        self.headerTimeout = headerTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.bodyTimeout = bodyTimeout
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateGracePeriod = bodyRateGracePeriod
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.lingerTimeout = lingerTimeout
        self.maxRequests = maxRequests
        self.minimumSendRate = minimumSendRate
        self.sendRateGracePeriod = sendRateGracePeriod
        self.maxPipelinedBytes = maxPipelinedBytes
    }
}

extension ConnectionState {
    /// The limits the state machine enforces.
    typealias Policy = ConnectionPolicy
}
