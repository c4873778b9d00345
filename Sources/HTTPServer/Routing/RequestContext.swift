import Logging

/// Per-request facts the server and router fill in, passed beside the request
/// (Hummingbird's `respond(to:context:)`).
public struct RequestContext: Sendable {
    /// A short id unique within this process, also written in the access log.
    public var requestID: String
    /// The logger, with `request.id` in its metadata and the peer as its `source` (the log's byte bound is shared
    /// by client, issue 48 point 6) when the server made the context. Built when asked for: most requests log
    /// nothing but their access-log line, and the metadata's copy cost a dictionary per request.
    public var logger: Logger {
        guard base.tagsRequestID else { return base.logger }
        var logger = base.logger.with("request.id", requestID)
        logger.source = peer?.clientKey
        return logger
    }
    private let base: SharedLogger
    /// Path parameters captured by the router, already percent-decoded once.
    public var parameters: Parameters
    /// The peer's address (its port dropped), read from the accepted socket by the server; nil when unknown (a
    /// request handed to a responder directly, as in tests).
    public var peer: IPAddress?
    /// Where the handler says what it waits for (a long poll, the upstream), so that the server can answer or give
    /// up that wait to make room at the connection cap (issue 23). Its own, unobserved one outside a server.
    public var activity: RequestActivity

    /// Creates a context.
    public init(
        requestID: String, logger: Logger, parameters: Parameters = Parameters(), peer: IPAddress? = nil,
        activity: RequestActivity = RequestActivity()
    ) {
        self.init(
            requestID: requestID, base: SharedLogger(logger, tagsRequestID: false), parameters: parameters,
            peer: peer, activity: activity)
    }

    /// The server's context of a request: its `logger` is the server's (`SharedLogger`, made once per server) with
    /// the request's id.
    init(
        requestID: String, base: SharedLogger, parameters: Parameters = Parameters(), peer: IPAddress?,
        activity: RequestActivity
    ) {
        self.requestID = requestID
        self.base = base
        self.parameters = parameters
        self.peer = peer
        self.activity = activity
    }

    /// The logger a context starts from, held by reference: a context is copied about four times on its way to a
    /// handler, and a copy of a `Logger` retains its label, metadata, sink and clock one by one (a third of a warm
    /// request's retains and releases in perf, issue 21); a copy of this retains one object.
    final class SharedLogger: Sendable {
        let logger: Logger
        /// Whether `RequestContext.logger` adds the request's id (the server's contexts do).
        let tagsRequestID: Bool

        init(_ logger: Logger, tagsRequestID: Bool) {
            self.logger = logger
            self.tagsRequestID = tagsRequestID
        }
    }
}

/// Path parameters captured by the router (`/habits/:name` → `name`).
public struct Parameters: Sendable, Equatable {
    private var storage: [String: String]

    /// Creates parameters.
    public init(_ storage: [String: String] = [:]) { self.storage = storage }

    /// Whether there are none (a literal route's request): asked per request, without building an empty value to
    /// compare with.
    public var isEmpty: Bool { storage.isEmpty }

    /// The decoded value of `name`, or nil.
    public subscript(name: String) -> String? {
        get { storage[name] }
        set { storage[name] = newValue }
    }

    /// The value of `name` converted to `T`; throws a 400 `HTTPError` if missing or not convertible.
    public func require<T: LosslessStringConvertible>(_ name: String, as type: T.Type = String.self) throws -> T {
        guard let raw = storage[name], let value = T(raw) else {
            throw HTTPError(.badRequest, "Bad path parameter '\(name)'.")
        }
        return value
    }
}
