import Foundation
import HTTPCore

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
        self.init(lowercased: scheme.lowercased(), host: host.lowercased(), port: port)
    }

    /// A site whose `scheme` and `host` are lowercase already: what `plain` reads costs no lowercased copies.
    private init(lowercased scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
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
        // Every request names its site (`SitePolicy`), and URLComponents cost about 3 µs of a warm page's CPU (issue
        // 21): a plain `name[:port]` is read directly, and anything else takes the URL parser's way.
        if let site = Self.plain(scheme: scheme, authority: authority) {
            self = site
            return
        }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \\".contains($0) }) else { return nil }
        self.init(url: scheme + "://" + authority)
        guard self.scheme == scheme.lowercased() else { return nil }
    }

    /// The site of an http(s) `authority` made only of letters, digits, dots and hyphens with an optional port of
    /// 1 to 65535 without leading zeros (what browsers send), read as URLComponents reads it; nil for anything else,
    /// including any with two hyphens in a row (punycode's `xn--`, which URLComponents decodes).
    static func plain(scheme given: String, authority: String) -> Site? {
        let scheme: String
        if HTTPHeaders.equal(given, "http") {
            scheme = "http"
        } else if HTTPHeaders.equal(given, "https") {
            scheme = "https"
        } else {
            return nil
        }
        var host = 0
        var uppercase = false
        var port: Int?
        var previous: UInt8 = 0
        for byte in authority.utf8 {
            // Two hyphens in a row (`xn--`, punycode): URLComponents decodes those; let it.
            if byte == 0x2D && previous == 0x2D { return nil }
            previous = byte
            if var digits = port {
                guard byte >= 0x30 && byte <= 0x39, digits != 0 || byte != 0x30 else { return nil }
                digits = digits * 10 + Int(byte - 0x30)
                guard digits <= 65535 else { return nil }
                port = digits
            } else if byte == 0x3A {
                port = 0
            } else {
                let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
                guard letter || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D else { return nil }
                if byte >= 0x41 && byte <= 0x5A { uppercase = true }
                host += 1
            }
        }
        guard host > 0, port != 0 else { return nil }
        let name = String(authority.utf8.prefix(host))!
        return Site(
            lowercased: scheme, host: uppercase ? name.lowercased() : name,
            port: port ?? defaultPort(scheme))
    }

    /// 443 for https, 80 otherwise.
    static func defaultPort(_ scheme: String) -> Int { scheme.lowercased() == "https" ? 443 : 80 }
}
