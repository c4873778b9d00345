/// A request method. Any token is accepted by the parser; the router decides what is allowed.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent (methods are case-sensitive, RFC 9110 §9.1).
    public let rawValue: String
    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
}
