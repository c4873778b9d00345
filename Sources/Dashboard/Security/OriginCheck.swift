import Foundation
import HTTPServer

/// Cross-site request forgery defence for every POST: the request must say it comes from this site.
///
/// The browser's `Origin` header (or, if absent, `Referer`) must name the same scheme, host and port as the `Host`
/// header the request was sent to. A request with neither header is refused too: every browser we serve sends
/// `Origin` on a form POST, even same-origin and without JavaScript (Chromium since 83, Firefox since 70, Safari),
/// and our `Referrer-Policy: same-origin` keeps `Referer` on same-site requests, so the only clients that send
/// neither are scripts — which can add an `Origin` header. Refusing them costs real users nothing, whereas
/// allowing them would let any privacy extension or proxy that strips both headers open the door.
/// `Origin: null` (sandboxed frames, some redirects) is refused for the same reason.
public struct OriginCheck: Sendable {
    /// The scheme this site is reached with (`http`; `https` behind a TLS-terminating proxy).
    public var scheme: String
    /// The host names (lowercased, IPv6 in brackets) the `Host` header may carry; nil accepts any.
    ///
    /// DNS rebinding defeats a bare Origin == Host check: a page on `rebind.evil.example` whose name is re-pointed
    /// at 127.0.0.1 posts with Host and Origin both `rebind.evil.example`. A dashboard bound to loopback can only be
    /// reached by the loopback names, so it accepts only those.
    public var allowedHosts: Set<String>?

    /// The names a browser on this machine reaches a loopback-bound dashboard by.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// Creates a check for a site served over `scheme`.
    public init(scheme: String = "http", allowedHosts: Set<String>? = nil) {
        self.scheme = scheme.lowercased()
        self.allowedHosts = allowedHosts
    }

    /// The check for a server bound to `host` (`--host`): loopback names only when bound to loopback, any name
    /// otherwise (the names a LAN or a proxy uses are not known here).
    public static func forServer(host: String) -> OriginCheck {
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        return OriginCheck(allowedHosts: loopback ? loopbackHosts : nil)
    }

    /// Whether `request` comes from this site.
    public func isSameSite(_ request: Request) -> Bool {
        guard let host = request.headers["Host"], let site = authority(ofHostHeader: host) else { return false }
        if let allowedHosts {
            guard let name = URLComponents(string: scheme + "://" + host)?.host?.lowercased(),
                allowedHosts.contains(name) || allowedHosts.contains("[" + name + "]")
            else { return false }
        }
        // Browsers send each header once; two of them mean a forged or mangled request, so neither is trusted.
        let origins = request.headers.values(for: "Origin")
        if !origins.isEmpty {
            return origins.count == 1 && authority(ofURL: origins[0]) == site
        }
        let referers = request.headers.values(for: "Referer")
        return referers.count == 1 && authority(ofURL: referers[0]) == site
    }

    /// Throws a 403 unless `request` comes from this site; call before changing anything.
    public func verify(_ request: Request) throws {
        guard isSameSite(request) else {
            throw HTTPError(.forbidden, "This form was sent from another site, so nothing was changed.")
        }
    }

    /// `host:port` of a `Host` header, lowercased, with the scheme's default port filled in.
    func authority(ofHostHeader value: String) -> String? {
        // A Host header is only `host[:port]`; anything with a path, user info or query is malformed.
        guard !value.isEmpty, !value.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        return authority(ofURL: scheme + "://" + value)
    }

    /// `host:port` of an absolute URL with this site's scheme, or nil (other scheme, malformed, `null`).
    func authority(ofURL value: String) -> String? {
        guard let components = URLComponents(string: value),
            components.scheme?.lowercased() == scheme,
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(host):\(port)"
    }
}
