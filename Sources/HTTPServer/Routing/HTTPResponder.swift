/// Anything that answers requests: the router, a handler, a middleware chain.
public protocol HTTPResponder: Sendable {
    /// Answers one request, once, on the connection's event loop: `.now` with the response when it needs no waiting
    /// (a page from the render cache, issue 21), else `.later` with the work that gives it. Throw (here or from the
    /// work) `HTTPResponseError` for answers the user should see.
    func respond(to request: Request, context: RequestContext) throws -> Answer
}

/// A responder made from a closure, for small handlers and tests.
public struct ClosureResponder: HTTPResponder {
    let answer: @Sendable (Request, RequestContext) throws -> Answer

    /// Wraps a handler that is always awaited (`Answer.later`).
    public init(_ body: @escaping @Sendable (Request, RequestContext) async throws -> Response) {
        self.answer = { request, context in .later { try await body(request, context) } }
    }

    /// Wraps a closure that gives the answer itself, now or later.
    public init(answering answer: @escaping @Sendable (Request, RequestContext) throws -> Answer) {
        self.answer = answer
    }

    public func respond(to request: Request, context: RequestContext) throws -> Answer {
        try answer(request, context)
    }
}
