/// A parsed route pattern such as `/habits/:name` or `/static/*`.
struct RoutePattern: Sendable, Equatable {
    /// One piece of a pattern between slashes.
    enum Component: Sendable, Equatable {
        /// Matches exactly this (decoded) segment.
        case literal(String)
        /// Matches any one segment and captures it under this name.
        case parameter(String)
        /// Matches one or more remaining segments, captured (joined with `/`) as parameter `*`.
        case wildcard

        /// Lower is more specific; a literal beats a capture, which beats a wildcard.
        var rank: Int {
            switch self {
            case .literal: 0
            case .parameter: 1
            case .wildcard: 2
            }
        }
    }

    /// The components in order.
    let components: [Component]

    /// Parses `pattern`; a `*` that is not last is a programming error.
    init(_ pattern: String) {
        var pieces = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if pieces.first == "" { pieces.removeFirst() }
        if pieces == [""] { pieces = [] }
        components = pieces.enumerated().map { index, piece in
            if piece == "*" {
                precondition(index == pieces.count - 1, "'*' must be the last component of route '\(pattern)'")
                return .wildcard
            }
            if piece.hasPrefix(":") && piece.count > 1 { return .parameter(String(piece.dropFirst())) }
            return .literal(piece)
        }
    }

    /// Matches decoded path segments, returning the captures, or nil.
    func match(_ segments: [String]) -> [String: String]? {
        var captures: [String: String] = [:]
        for (index, component) in components.enumerated() {
            switch component {
            case .literal(let text):
                guard index < segments.count, segments[index] == text else { return nil }
            case .parameter(let name):
                guard index < segments.count else { return nil }
                captures[name] = segments[index]
            case .wildcard:
                guard index < segments.count else { return nil }
                captures["*"] = segments[index...].joined(separator: "/")
                return captures
            }
        }
        return segments.count == components.count ? captures : nil
    }

    /// Whether `self` should be tried before `other`: the first differing component decides.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(components, other.components) where mine.rank != theirs.rank {
            return mine.rank < theirs.rank
        }
        return components.count > other.components.count
    }
}
