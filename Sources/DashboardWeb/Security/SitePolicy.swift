import DashboardCore
import HTTPServer

/// Which site a request was sent to, and whether it may be served at all: the origin policy behind the CSRF check,
/// the DNS-rebinding check, `Secure` cookies and `Strict-Transport-Security` (issue 20). A pure value: headers and the
/// peer's address in, a `Site` (or nil: not this dashboard's) out.
///
/// - With `--public-url`, that URL's origin is the only one: the request's host (a trusted proxy's forwarded host,
///   else `Host`) must be its host and port, on every bind address, and its scheme is the public URL's.
/// - Without it, the `Host` header names the site, scheme `http`, and only the loopback names and the bound address
///   are served (issue 48: bound to every interface, the names a LAN or a proxy uses are not known, so those need a
///   public URL). A `--trusted-proxy` may say the scheme and host the browser used (`X-Forwarded-Proto`/`-Host`, or
///   `Forwarded`), and that host must be one of those names too; from anyone else those fields are ignored.
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

    /// The policy of a server bound to `host` (`--host`): without a public URL, the loopback names and the bound
    /// address itself (none for a wildcard address, `0.0.0.0` or `::`, which is no name a browser uses).
    public static func forServer(
        host: String, publicURL: PublicURL? = nil, trustedProxies: [AddressRange] = []
    ) -> SitePolicy {
        var allowed = loopbackHosts
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
        if let bound = Site(scheme: "http", authority: bracketed), !["0.0.0.0", "[::]"].contains(bound.host) {
            allowed.insert(bound.host)
        }
        return SitePolicy(publicURL: publicURL, allowedHosts: allowed, trustedProxies: trustedProxies)
    }

    /// The site `request` was sent to, arriving from `peer` (nil when unknown, as in tests); nil when it names no
    /// site this dashboard serves.
    public func site(of request: Request, peer: IPAddress?) -> Site? {
        site(host: request.headers["Host"], forwarded: isTrusted(peer) ? ForwardedFields(request.headers) : nil)
    }

    /// The scheme `request` came over, as far as the dashboard can tell even when it names no site it serves: the
    /// public URL's, else a trusted proxy's word, else `scheme`. What a 421 needs to carry HSTS over https.
    public func scheme(of request: Request, peer: IPAddress?) -> String {
        if let publicURL { return publicURL.site.scheme }
        return (isTrusted(peer) ? ForwardedFields(request.headers).proto : nil) ?? scheme
    }

    /// Whether `peer` is a `--trusted-proxy` (never when unknown, as in tests).
    private func isTrusted(_ peer: IPAddress?) -> Bool {
        peer.map { address in trustedProxies.contains { $0.contains(address) } } ?? false
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
        guard let site = Site(scheme: forwarded?.proto ?? scheme, authority: named) else { return nil }
        // The proxy's host is the name the browser used, so it is held to the same names (issue 48: a client's own
        // `X-Forwarded-Host: evil.example` passed on by a proxy must not make a cross-site POST look same-site).
        if let allowedHosts, !allowedHosts.contains(site.host) { return nil }
        return site
    }

    /// The path every URL the dashboard writes starts with (`PathPrefix`).
    public var pathPrefix: PathPrefix { PathPrefix(publicURL?.pathPrefix ?? "") }
}
