import HTTPCore

/// Why a call to the Habits API failed. Every case names enough to find the call in a log.
public enum HabitsAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request never got a complete, well-formed answer: refused, timed out, reset, malformed response.
    case transport(String)
    /// The upstream answered with a non-2xx status for `path`.
    case status(Int, path: String)
    /// The body of a 2xx answer was not the JSON shape of `type`.
    case decoding(type: String, detail: String)

    public var description: String {
        switch self {
        case .transport(let detail): "Habits API unreachable: \(detail)"
        case .status(let code, let path): "Habits API answered \(code) for \(path)"
        case .decoding(let type, let detail): "Habits API sent a body that is not a \(type): \(detail)"
        }
    }
}

extension HabitsAPIError: HTTPResponseError {
    /// 404 when the upstream says the thing does not exist; otherwise 502, the upstream failed us.
    public var status: HTTPStatus {
        if case .status(404, _) = self { return .notFound }
        return .badGateway
    }

    /// A message safe for anyone: no paths, hosts or upstream text.
    public var publicMessage: String {
        if case .status(404, _) = self { return "Not found." }
        return "The Habits service is not answering right now. Please try again in a moment."
    }
}
