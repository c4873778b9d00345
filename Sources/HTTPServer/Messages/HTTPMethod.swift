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

/// The protocol version of a request; only HTTP/1.0 and HTTP/1.1 are served.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// Major version digit.
    public var major: Int
    /// Minor version digit.
    public var minor: Int
    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    public var description: String { "HTTP/\(major).\(minor)" }
    /// HTTP/1.0
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
}
