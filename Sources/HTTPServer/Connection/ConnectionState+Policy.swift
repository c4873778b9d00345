/// The limits a connection's state machine enforces, from the server's configuration.
extension ConnectionState {
    /// The limits the state machine enforces.
    struct Policy: Equatable {
        var headerTimeout: Duration
        var bodyReadTimeout: Duration
        /// The whole body must arrive within this time of the head.
        var bodyTimeout: Duration
        /// After `bodyRateGracePeriod`, the body must have arrived at this average rate (bytes per second; 0: off).
        var minimumBodyRate: Int
        /// How long a body may arrive slower than `minimumBodyRate` (a slow start, a stalled first packet).
        var bodyRateGracePeriod: Duration
        var idleTimeout: Duration
        var writeTimeout: Duration
        var lingerTimeout: Duration
        var maxRequests: Int
        /// After `sendRateGracePeriod` of an answer waiting on the peer, the peer must have taken it at this
        /// average rate (bytes per second; 0: off), else the connection closes (issue 23: pipelined slow readers).
        var minimumSendRate: Int
        /// How long an answer may wait on a peer reading slower than `minimumSendRate`.
        var sendRateGracePeriod: Duration
        /// The pipelining bound (`ConnectionState+Pipelining.swift`): body bytes answered one after another without
        /// the connection waiting for its peer; the answer that reaches it is the connection's last.
        var maxPipelinedBytes = 128 * 1024

        init(_ configuration: ServerConfiguration) {
            self.init(
                headerTimeout: configuration.headerTimeout, bodyReadTimeout: configuration.bodyReadTimeout,
                bodyTimeout: configuration.bodyTimeout, minimumBodyRate: configuration.minimumBodyRate,
                bodyRateGracePeriod: configuration.bodyRateGracePeriod, idleTimeout: configuration.idleTimeout,
                writeTimeout: configuration.writeTimeout, lingerTimeout: configuration.lingerTimeout,
                maxRequests: configuration.maxRequestsPerConnection, minimumSendRate: configuration.minimumSendRate,
                sendRateGracePeriod: configuration.sendRateGracePeriod)
        }

        init(
            headerTimeout: Duration, bodyReadTimeout: Duration, bodyTimeout: Duration = .seconds(30),
            minimumBodyRate: Int = 0, bodyRateGracePeriod: Duration = .seconds(5), idleTimeout: Duration,
            writeTimeout: Duration, lingerTimeout: Duration, maxRequests: Int, minimumSendRate: Int = 0,
            sendRateGracePeriod: Duration = .seconds(5)
        ) {
            self.minimumSendRate = minimumSendRate
            self.sendRateGracePeriod = sendRateGracePeriod
            self.headerTimeout = headerTimeout
            self.bodyReadTimeout = bodyReadTimeout
            self.bodyTimeout = bodyTimeout
            self.minimumBodyRate = minimumBodyRate
            self.bodyRateGracePeriod = bodyRateGracePeriod
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.lingerTimeout = lingerTimeout
            self.maxRequests = maxRequests
        }
    }
}
