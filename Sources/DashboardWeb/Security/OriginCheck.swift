import DashboardCore
import Foundation
import HTTPServer

/// Cross-site request forgery defence for every POST: the request must say it comes from this site.
///
/// The browser's `Origin` header (or, if absent, `Referer`) must name the site the request was sent to, as
/// `SitePolicy` resolves it (the `--public-url`, else the `Host` header and a trusted proxy's forwarded scheme and
/// host). A request with neither header is refused too: every browser we serve sends
/// `Origin` on a form POST, even same-origin and without JavaScript (Chromium since 83, Firefox since 70, Safari),
/// and our `Referrer-Policy: same-origin` keeps `Referer` on same-site requests, so the only clients that send
/// neither are scripts — which can add an `Origin` header. Refusing them costs real users nothing, whereas
/// allowing them would let any privacy extension or proxy that strips both headers open the door.
/// `Origin: null` (sandboxed frames, some redirects) is refused for the same reason.
public struct OriginCheck: Sendable {
    /// Which site a request was sent to.
    public var policy: SitePolicy

    /// The names a browser on this machine reaches a loopback-bound dashboard by.
    public static var loopbackHosts: Set<String> { SitePolicy.loopbackHosts }

    /// Creates a check for `policy`.
    public init(policy: SitePolicy) { self.policy = policy }

    /// Creates a check for a site served over `scheme` whose `Host` may be one of `allowedHosts` (nil: any).
    public init(scheme: String = "http", allowedHosts: Set<String>? = nil) {
        self.init(policy: SitePolicy(scheme: scheme, allowedHosts: allowedHosts))
    }

    /// The check for a server bound to `host` (`--host`); see `SitePolicy.forServer`.
    public static func forServer(
        host: String, publicURL: PublicURL? = nil, trustedProxies: [AddressRange] = []
    ) -> OriginCheck {
        OriginCheck(policy: .forServer(host: host, publicURL: publicURL, trustedProxies: trustedProxies))
    }

    /// Whether `request`, arriving from `peer`, comes from the site it was sent to.
    public func isSameSite(_ request: Request, peer: IPAddress? = nil) -> Bool {
        guard let site = policy.site(of: request, peer: peer) else { return false }
        // Browsers send each header once; two of them mean a forged or mangled request, so neither is trusted.
        let origins = request.headers.values(for: "Origin")
        if !origins.isEmpty {
            return origins.count == 1 && Site(url: origins[0]) == site
        }
        let referers = request.headers.values(for: "Referer")
        return referers.count == 1 && Site(url: referers[0]) == site
    }

    /// Throws a 403 unless `request` comes from this site; call before changing anything.
    public func verify(_ request: Request, peer: IPAddress? = nil) throws {
        guard isSameSite(request, peer: peer) else {
            throw HTTPError(.forbidden, "This form was sent from another site, so nothing was changed.")
        }
    }
}
