import Foundation

/// An origin as a browser names it (RFC 6454): scheme, host and port. The site a request was sent to, and what its
/// `Origin` must equal.
public struct Site: Equatable, Hashable, Sendable {
    /// `http` or `https`, lowercased.
    public var scheme: String
    /// The host, lowercased; an IPv6 address in brackets (`[::1]`).
    public var host: String
    /// The port, the scheme's default filled in.
    public var port: Int

    /// Creates a site; `scheme` and `host` are lowercased.
    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// Whether the site is reached over TLS: its cookie is `Secure` and responses carry `Strict-Transport-Security`.
    public var isHTTPS: Bool { scheme == "https" }

    /// The site of an absolute URL (`https://example.org/x` → https, example.org, 443); nil for another scheme than
    /// http(s), no host, user info, or `null`.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.user == nil, components.password == nil,
            let host = components.host, !host.isEmpty
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
        self.init(scheme: scheme, host: bracketed, port: components.port ?? Self.defaultPort(scheme))
    }

    /// The site a `Host` header (or a proxy's forwarded host) names under `scheme`; nil unless it is only
    /// `host[:port]` (anything with a path, user info, query or space is malformed).
    public init?(scheme: String, authority: String) {
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \\".contains($0) }) else { return nil }
        self.init(url: scheme + "://" + authority)
        guard self.scheme == scheme.lowercased() else { return nil }
    }

    /// 443 for https, 80 otherwise.
    static func defaultPort(_ scheme: String) -> Int { scheme.lowercased() == "https" ? 443 : 80 }
}
