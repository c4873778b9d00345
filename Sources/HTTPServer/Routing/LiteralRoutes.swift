import HTTPCore

/// The router's routes without captures or a wildcard, keyed by method and path, so the request for one is found
/// with a single dictionary look-up instead of decoding its segments and matching every route (issue 21: that loop
/// was about 5 % of a warm page's CPU time).
///
/// Only a path with no `%` is looked up: it decodes to itself, so its raw text is its decoded path; anything else
/// goes the full way through `RoutePattern.match`. A literal route is the most specific route for its own path
/// (`RoutePattern.isMoreSpecific`), so when it answers the method it is the route the full match picks.
struct LiteralRoutes: Sendable {
    /// A method and a decoded path.
    struct Key: Hashable, Sendable {
        /// The method the route answers.
        var method: HTTPMethod
        /// The route's path as written (`/`, `/habits`, `/a/`).
        var path: String
    }

    private var responders: [Key: any HTTPResponder] = [:]

    /// Remembers `responder` for `method` on `pattern` when the pattern is all literal; other patterns are ignored.
    mutating func add(_ method: HTTPMethod, _ pattern: RoutePattern, _ responder: any HTTPResponder) {
        guard let path = Self.path(of: pattern) else { return }
        responders[Key(method: method, path: path)] = responder
    }

    /// The responder of the literal route for `method` on the raw `path` (HEAD falling back to GET, as the router
    /// does); nil when there is none or the path has escapes to decode.
    func responder(_ method: HTTPMethod, _ path: String) -> (any HTTPResponder)? {
        guard !responders.isEmpty, !path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        if let responder = responders[Key(method: method, path: path)] { return responder }
        guard method == .head else { return nil }
        return responders[Key(method: .get, path: path)]
    }

    /// The path an all-literal pattern matches (`/` for none), or nil when it has a capture or a wildcard.
    static func path(of pattern: RoutePattern) -> String? {
        var literals: [String] = []
        for component in pattern.components {
            guard case .literal(let text) = component else { return nil }
            literals.append(text)
        }
        return "/" + literals.joined(separator: "/")
    }
}
