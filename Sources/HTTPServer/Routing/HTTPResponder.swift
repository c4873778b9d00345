/// Anything that answers requests: the router, a handler, a middleware chain.
public protocol HTTPResponder: Sendable {
    /// Answers one request. Throw `HTTPResponseError` for answers the user should see.
    func respond(to request: Request, context: RequestContext) async throws -> Response
}

/// A responder made from a closure, for small handlers and tests.
public struct ClosureResponder: HTTPResponder {
    let body: @Sendable (Request, RequestContext) async throws -> Response

    /// Wraps a closure.
    public init(_ body: @escaping @Sendable (Request, RequestContext) async throws -> Response) {
        self.body = body
    }

    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        try await body(request, context)
    }
}
