import DashboardCore
import HTTPServer

/// The names and the path of the dashboard's two cookies, the browser's settings and its last visit, under a site
/// policy (issue 48 point 2).
///
/// - The path is the public URL's prefix (`/habits/`), so a dashboard under a prefix never sends its cookies to the
///   rest of its host.
/// - With a public URL that is https at the root, the names carry the `__Host-` prefix: a browser keeps such a cookie
///   only when it is `Secure`, has no `Domain` and has `Path=/` (RFC 6265bis §4.1.3.2), so a neighbour site
///   (`evil.example.org` beside `example.org`) can no longer toss a cookie of that name in front of ours. The old
///   names are still read then, once, and the cookie reissued under the new name (`legacyBrowserName`).
/// - Elsewhere (plain http, or under a prefix, where `__Host-` is not allowed) the names stay as they were.
public struct CookieScope: Equatable, Sendable {
    /// The settings cookie's name.
    public let browserName: String
    /// The last-visit cookie's name.
    public let visitName: String
    /// The settings cookie's name before `__Host-` (still read, then replaced); nil when the names are unprefixed.
    public let legacyBrowserName: String?
    /// The last-visit cookie's name before `__Host-`; nil when the names are unprefixed.
    public let legacyVisitName: String?
    /// The `Path` of both cookies: `/`, or the public URL's prefix with a trailing slash.
    public let path: String
    /// Whether every cookie is `Secure` whatever the request says (the names carry `__Host-`, which requires it).
    public let alwaysSecure: Bool

    /// The unprefixed settings cookie name of every version before issue 48.
    public static let plainBrowserName = BrowserID.cookieName
    /// The unprefixed last-visit cookie name.
    public static let plainVisitName = LastVisit.cookieName
    /// What the names start with when the public URL allows it.
    public static let hostPrefix = "__Host-"

    /// The scope under `site`.
    public init(site: SitePolicy) {
        let hostOnly = site.publicURL.map { $0.site.isHTTPS && $0.pathPrefix.isEmpty } ?? false
        let prefix = hostOnly ? Self.hostPrefix : ""
        browserName = prefix + Self.plainBrowserName
        visitName = prefix + Self.plainVisitName
        legacyBrowserName = hostOnly ? Self.plainBrowserName : nil
        legacyVisitName = hostOnly ? Self.plainVisitName : nil
        path = site.pathPrefix.url("/")
        alwaysSecure = hostOnly
    }

    /// A cookie under this scope, `Secure` when the request came over https (`isHTTPS`) or the name requires it.
    func cookie(name: String, value: String, isHTTPS: Bool) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: BrowserSettings.cookieMaxAge, path: path, httpOnly: true,
            secure: alwaysSecure || isHTTPS, sameSite: .lax)
    }

    /// The field that deletes the cookie `name` as earlier versions set it (`Path=/`), once it has been reissued under
    /// its `__Host-` name: the browser stops sending the old copy, so only the new name counts from then on.
    func deletion(of name: String) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, secure: alwaysSecure, sameSite: .lax)
    }
}
