import Foundation

/// The one address the dashboard is reached at (`--public-url`, env `PUBLIC_URL`, issue 20): its origin, which
/// requests' `Host` and `Origin` must name, and the path prefix a proxy serves it under (`https://example.org/habits/`).
///
/// The proxy strips the prefix before it passes a request on (nginx: `location /habits/ { proxy_pass
/// http://127.0.0.1:8000/; }`), so the dashboard routes as at `/` and only puts the prefix on the URLs it writes
/// (see `PathPrefix` and docs/DEPLOY.md).
public struct PublicURL: Equatable, Sendable {
    /// The origin: scheme, host, port.
    public var site: Site
    /// The path prefix without a trailing slash: `""` at the root, `/habits` under `https://example.org/habits/`.
    public var pathPrefix: String

    /// Creates a public URL from its parts.
    public init(site: Site, pathPrefix: String = "") {
        self.site = site
        self.pathPrefix = pathPrefix
    }

    /// Parses `text`: an absolute http(s) URL with a host, no user info, query or fragment, and a path that is a
    /// plain prefix (no dot segments, no escapes, so it is the same bytes in every URL the dashboard writes).
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let site = Site(url: text),
            components.query == nil, components.fragment == nil
        else { return nil }
        let path = components.percentEncodedPath
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        for segment in segments {
            guard segment != ".", segment != "..",
                segment.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) })
            else { return nil }
        }
        self.init(site: site, pathPrefix: segments.map { "/" + $0 }.joined())
    }

    /// The URL as people open it, with a trailing slash: `https://example.org/habits/`.
    public var description: String {
        let defaultPort = site.port == Site.defaultPort(site.scheme)
        return site.scheme + "://" + site.host + (defaultPort ? "" : ":\(site.port)") + pathPrefix + "/"
    }
}
