/// Anything that answers requests: the router, a handler, a middleware chain.
public protocol HTTPResponder: Sendable {
    /// Answers one request. Throw `HTTPResponseError` for answers the user should see.
    func respond(to request: Request, context: RequestContext) async throws -> Response

    /// The answer `respond` would give, when it can be given at once without waiting for anything (a page from the
    /// render cache, issue 21): the connection asks this first, on its event loop, and only on nil hands the request
    /// to its handler task, so a warm page costs no task hop. It must answer (or throw) exactly as `respond` would,
    /// and nil must change nothing `respond` then sees twice. The default is nil: always `respond`.
    func respondAtOnce(to request: Request, context: RequestContext) throws -> Response?
}

extension HTTPResponder {
    /// Never at once: every request goes to `respond`.
    public func respondAtOnce(to request: Request, context: RequestContext) throws -> Response? { nil }
}

/// A responder made from a closure, for small handlers and tests.
public struct ClosureResponder: HTTPResponder {
    let body: @Sendable (Request, RequestContext) async throws -> Response
    let atOnce: (@Sendable (Request, RequestContext) throws -> Response?)?

    /// Wraps a closure, and optionally its answer at once (`HTTPResponder.respondAtOnce`).
    public init(
        atOnce: (@Sendable (Request, RequestContext) throws -> Response?)? = nil,
        _ body: @escaping @Sendable (Request, RequestContext) async throws -> Response
    ) {
        self.atOnce = atOnce
        self.body = body
    }

    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        try await body(request, context)
    }

    public func respondAtOnce(to request: Request, context: RequestContext) throws -> Response? {
        try atOnce?(request, context)
    }
}
