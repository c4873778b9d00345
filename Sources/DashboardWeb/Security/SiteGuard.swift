import DashboardCore
import HTTPCore
import HTTPServer

/// The public-address rules of issues 20 and 48 around the whole app: a request for a host this dashboard is not
/// served at (another than `--public-url`'s, or without it another than the loopback names and the bound address) is
/// refused (421), so DNS rebinding finds nothing to read; every answer over https, the 421 included, gets
/// `Strict-Transport-Security`; and a redirect's `Location` gets the path prefix.
struct SiteGuard<Next: HTTPResponder>: HTTPResponder {
    /// Which site a request was sent to.
    let policy: SitePolicy
    /// The app.
    let next: Next

    /// The HSTS value (`SecurityFields.strictTransportSecurity`).
    static var strictTransportSecurity: String { SecurityFields.strictTransportSecurity }

    /// Admits the request once; the site it was sent to finishes the answer, now or when its work is done.
    func respond(to request: Request, context: RequestContext) throws -> Answer {
        let site = try admit(request, context)
        let answer = try next.respond(to: request, context: context)
        // A warm page's answer is finished here, building no closure: only work for later is wrapped.
        guard case .now(let response) = answer else { return answer.map { finish($0, site: site) } }
        return .now(finish(response, site: site))
    }

    /// The site `request` was sent to; throws 421 for one this dashboard is not served at.
    private func admit(_ request: Request, _ context: RequestContext) throws -> Site? {
        let site = policy.site(of: request, peer: context.peer)
        // `/healthz` stays reachable by any name: a load balancer or a service manager asks by address.
        if site == nil, request.path != "/healthz" {
            throw MisdirectedRequest(overHTTPS: policy.scheme(of: request, peer: context.peer) == "https")
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
