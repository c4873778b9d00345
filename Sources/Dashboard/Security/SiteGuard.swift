import HTTPCore
import HTTPServer

/// The public-address rules of issue 20 around the whole app: with `--public-url`, a request for another host is
/// refused (421) on every bind address, so DNS rebinding finds nothing to read; a site reached over https gets
/// `Strict-Transport-Security`; and a redirect's `Location` gets the path prefix.
struct SiteGuard<Next: HTTPResponder>: HTTPResponder {
    /// Which site a request was sent to.
    let policy: SitePolicy
    /// The app.
    let next: Next

    /// A year, the usual HSTS lifetime; no `includeSubDomains`, since other hosts under the name are not ours to bind.
    static var strictTransportSecurity: String { "max-age=31536000" }

    func respond(to request: Request, context: RequestContext) async throws -> Response {
        let site = try admit(request, context)
        return finish(try await next.respond(to: request, context: context), site: site)
    }

    func respondAtOnce(to request: Request, context: RequestContext) throws -> Response? {
        let site = try admit(request, context)
        return try next.respondAtOnce(to: request, context: context).map { finish($0, site: site) }
    }

    /// The site `request` was sent to; throws 421 for one this dashboard is not served at.
    private func admit(_ request: Request, _ context: RequestContext) throws -> Site? {
        let site = policy.site(of: request, peer: context.peer)
        // `/healthz` stays reachable by any name: a load balancer or a service manager asks by address.
        if site == nil, policy.publicURL != nil, request.path != "/healthz" {
            throw HTTPError(.misdirectedRequest, "This dashboard is not served at this address.")
        }
        return site
    }

    /// `response` with HSTS over https and the path prefix on its redirect.
    private func finish(_ response: Response, site: Site?) -> Response {
        var response = response
        if site?.isHTTPS == true {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: Self.strictTransportSecurity)
        }
        if let location = response.headers["Location"] {
            response.headers.replaceOrAdd(name: "Location", value: policy.pathPrefix.url(location))
        }
        return response
    }
}
