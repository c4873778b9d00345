import HTTPCore

/// Maps method + path to responders.
///
/// Paths are matched on segments percent-decoded exactly once, so `/habits/Push-ups%2FSit-ups` matches
/// `/habits/:name` with `name == "Push-ups/Sit-ups"`. Literal segments win over captures, which win over `*`.
/// GET routes also answer HEAD (the connection drops the body). No match gives 404 (or the fallback);
/// a path that matches with another method gives 405 with `Allow` (RFC 9110 §15.5.6). `OPTIONS *` gets 204 with
/// `Allow` naming every method some route answers (RFC 9110 §9.3.7).
public struct Router: HTTPResponder {
    private struct Route: Sendable {
        var pattern: RoutePattern
        var responders: [HTTPMethod: any HTTPResponder]
    }

    /// Kept sorted most-specific first, so the first route that matches and has the method wins.
    private var routes: [Route] = []
    /// The routes without captures, by method and path (`LiteralRoutes`): a warm page's route is found with one
    /// hash, building no segments and no captures (issue 21).
    private var literals = LiteralRoutes()
    private var fallbackResponder: (any HTTPResponder)?

    /// Creates an empty router.
    public init() {}

    /// Adds `responder` for `method` on `pattern` (`/habits/:name`, `/static/*`); a later add for the same
    /// method and pattern replaces the earlier one.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ responder: some HTTPResponder) {
        let parsed = RoutePattern(pattern)
        literals.add(method, parsed, responder)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            routes[index].responders[method] = responder
            return
        }
        let position = routes.firstIndex { parsed.isMoreSpecific(than: $0.pattern) } ?? routes.endIndex
        routes.insert(Route(pattern: parsed, responders: [method: responder]), at: position)
    }

    /// Adds a GET (and so HEAD) handler, always awaited.
    public mutating func get(
        _ pattern: String, _ handler: @escaping @Sendable (Request, RequestContext) async throws -> Response
    ) {
        add(.get, pattern, ClosureResponder(handler))
    }

    /// Adds a GET (and so HEAD) handler that gives its answer itself, now or later (`Answer`).
    public mutating func get(
        _ pattern: String, answering answer: @escaping @Sendable (Request, RequestContext) throws -> Answer
    ) {
        add(.get, pattern, ClosureResponder(answering: answer))
    }

    /// Adds a POST handler.
    public mutating func post(
        _ pattern: String, _ handler: @escaping @Sendable (Request, RequestContext) async throws -> Response
    ) {
        add(.post, pattern, ClosureResponder(handler))
    }

    /// Answers requests that match no route (for example static files or an app's own 404 page).
    public mutating func fallback(_ responder: some HTTPResponder) {
        fallbackResponder = responder
    }

    /// Resolves the route once; the route's responder answers, now or later.
    public func respond(to request: Request, context: RequestContext) throws -> Answer {
        switch try resolve(request, context) {
        case .answer(let response): return .now(response)
        case .route(let responder, let context): return try responder.respond(to: request, context: context)
        }
    }

    /// Where a request goes: an answer of the router's own, or a responder with the route's parameters.
    private enum Resolution {
        case answer(Response)
        case route(any HTTPResponder, RequestContext)
    }

    private func resolve(_ request: Request, _ context: RequestContext) throws -> Resolution {
        if request.method == .options && request.head.target == "*" {
            var response = Response(status: .noContent)
            response.headers.add(name: "Allow", value: allowedMethods.joined(separator: ", "))
            return .answer(response)
        }
        if let responder = literals.responder(request.method, request.path) {
            // The literal route is the most specific one for its path, so the slow loop would have chosen it too.
            guard !context.parameters.isEmpty else { return .route(responder, context) }
            var context = context
            context.parameters = Parameters()
            return .route(responder, context)
        }
        guard let segments = request.decodedPathSegments() else {
            // A malformed escape or non-UTF-8 path cannot name any resource; refuse instead of guessing.
            throw HTTPError(.badRequest, "Malformed percent-encoding in the path.")
        }
        var allowed: Set<String> = []
        for route in routes {
            guard let captures = route.pattern.match(segments) else { continue }
            let responder =
                route.responders[request.method]
                ?? (request.method == .head ? route.responders[.get] : nil)
            if let responder {
                var context = context
                context.parameters = Parameters(captures)
                return .route(responder, context)
            }
            for method in route.responders.keys {
                allowed.insert(method.rawValue)
                if method == .get { allowed.insert(HTTPMethod.head.rawValue) }
            }
        }
        if allowed.isEmpty {
            if let fallbackResponder { return .route(fallbackResponder, context) }
            return .answer(.text("Not Found", status: .notFound))
        }
        var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
        response.headers.add(name: "Allow", value: allowed.sorted().joined(separator: ", "))
        return .answer(response)
    }

    /// Every method some route answers (GET brings HEAD), plus OPTIONS for `OPTIONS *` itself, sorted.
    var allowedMethods: [String] {
        var methods: Set<String> = [HTTPMethod.options.rawValue]
        for route in routes {
            for method in route.responders.keys {
                methods.insert(method.rawValue)
                if method == .get { methods.insert(HTTPMethod.head.rawValue) }
            }
        }
        return methods.sorted()
    }
}
