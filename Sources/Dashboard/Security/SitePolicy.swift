import HTTPServer

/// Which site a request was sent to, and whether it may be served at all: the origin policy behind the CSRF check,
/// the DNS-rebinding check, `Secure` cookies and `Strict-Transport-Security` (issue 20). A pure value: headers and the
/// peer's address in, a `Site` (or nil: not this dashboard's) out.
///
/// - With `--public-url`, that URL's origin is the only one: the request's host (a trusted proxy's forwarded host,
///   else `Host`) must be its host and port, on every bind address, and its scheme is the public URL's.
/// - Without it, today's rule: the `Host` header names the site, scheme `http`, and a loopback-bound dashboard
///   accepts only the loopback names. A `--trusted-proxy` may say the scheme and host the browser used
///   (`X-Forwarded-Proto`/`-Host`, or `Forwarded`); from anyone else those fields are ignored.
public struct SitePolicy: Sendable {
    /// The one public origin (and path prefix); nil keeps the per-request rule.
    public var publicURL: PublicURL?
    /// The scheme assumed without a public URL and without a trusted proxy's word.
    public var scheme: String
    /// The names (lowercased, IPv6 in brackets) the `Host` header may carry without a public URL; nil accepts any.
    ///
    /// DNS rebinding defeats a bare Origin == Host check: a page on `rebind.evil.example` whose name is re-pointed at
    /// 127.0.0.1 posts with Host and Origin both `rebind.evil.example`. A dashboard bound to loopback can only be
    /// reached by the loopback names, so it accepts only those.
    public var allowedHosts: Set<String>?
    /// Proxies whose forwarded fields are believed (`--trusted-proxy`).
    public var trustedProxies: [AddressRange]

    /// The names a browser on this machine reaches a loopback-bound dashboard by.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// Creates a policy.
    public init(
        publicURL: PublicURL? = nil, scheme: String = "http", allowedHosts: Set<String>? = nil,
        trustedProxies: [AddressRange] = []
    ) {
        self.publicURL = publicURL
        self.scheme = scheme.lowercased()
        self.allowedHosts = allowedHosts
        self.trustedProxies = trustedProxies
    }

    /// The policy of a server bound to `host` (`--host`): without a public URL, loopback names only when bound to
    /// loopback, any name otherwise (the names a LAN or a proxy uses are not known then).
    public static func forServer(
        host: String, publicURL: PublicURL? = nil, trustedProxies: [AddressRange] = []
    ) -> SitePolicy {
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        return SitePolicy(
            publicURL: publicURL, allowedHosts: loopback ? loopbackHosts : nil, trustedProxies: trustedProxies)
    }

    /// The site `request` was sent to, arriving from `peer` (nil when unknown, as in tests); nil when it names no
    /// site this dashboard serves.
    public func site(of request: Request, peer: IPAddress?) -> Site? {
        let trusted = peer.map { address in trustedProxies.contains { $0.contains(address) } } ?? false
        return site(host: request.headers["Host"], forwarded: trusted ? ForwardedFields(request.headers) : nil)
    }

    /// The site of a request with `Host` field `host` and, when it came through a trusted proxy, that proxy's
    /// `forwarded` fields.
    public func site(host: String?, forwarded: ForwardedFields?) -> Site? {
        guard let hostField = host, let named = forwarded?.host ?? Optional(hostField) else { return nil }
        if let publicURL {
            guard let site = Site(scheme: publicURL.site.scheme, authority: named), site == publicURL.site else {
                return nil
            }
            return site
        }
        if let allowedHosts {
            // The connection's own Host is what a rebinding page controls; a trusted proxy's word comes after it.
            guard let local = Site(scheme: scheme, authority: hostField), allowedHosts.contains(local.host) else {
                return nil
            }
            // Without a proxy's word the site is that Host's: read once (issue 21).
            if forwarded == nil { return local }
        }
        return Site(scheme: forwarded?.proto ?? scheme, authority: named)
    }

    /// The path every URL the dashboard writes starts with (`PathPrefix`).
    public var pathPrefix: PathPrefix { PathPrefix(publicURL?.pathPrefix ?? "") }
}
