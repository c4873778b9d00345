import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SitePolicyTests {
    let proxy = AddressRange.list("127.0.0.1")!
    let habits = PublicURL("https://habits.example/")!

    func request(_ headers: [(String, String)]) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders(headers))
    }

    @Test func withoutAPublicURLTheHostHeaderNamesAnHTTPSite() {
        let policy = SitePolicy.forServer(host: "Dash.Example")
        #expect(
            policy.site(of: request([("Host", "Dash.Example:8000")]), peer: IPAddress("10.0.0.9"))
                == Site(scheme: "http", host: "dash.example", port: 8000))
        #expect(policy.site(of: request([]), peer: nil) == nil)
        #expect(policy.site(of: request([("Host", "a/b")]), peer: nil) == nil)
    }

    /// Issue 20's measurement: nginx terminating TLS sent `Host: 127.0.0.1:PORT` and `X-Forwarded-Proto: https`; the
    /// browser's Origin was `https://127.0.0.1:PORT`, so the site must be https when the proxy is trusted.
    @Test func aTrustedProxysForwardedSchemeAndHostStandIn() {
        let policy = SitePolicy.forServer(host: "127.0.0.1", trustedProxies: proxy)
        let forwarded = request([
            ("Host", "127.0.0.1:8000"), ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "127.0.0.1:8443"),
        ])
        #expect(
            policy.site(of: forwarded, peer: IPAddress("127.0.0.1"))
                == Site(scheme: "https", host: "127.0.0.1", port: 8443))
    }

    @Test func forwardedFieldsFromAnyoneElseAreIgnored() {
        let policy = SitePolicy.forServer(host: "0.0.0.0", trustedProxies: proxy)
        let forwarded = request([
            ("Host", "127.0.0.1:8000"), ("X-Forwarded-Proto", "https"), ("Forwarded", "proto=https;host=evil.example"),
        ])
        #expect(
            policy.site(of: forwarded, peer: IPAddress("10.1.2.3"))
                == Site(scheme: "http", host: "127.0.0.1", port: 8000))
        #expect(policy.site(of: forwarded, peer: nil) == Site(scheme: "http", host: "127.0.0.1", port: 8000))
    }

    /// Issue 48: without a public URL, on every bind address, only the loopback names (any port, or none) and the bound
    /// address itself are served; a wildcard bind adds no name, so a rebinding page's own name is never one.
    @Test(arguments: ["0.0.0.0", "::", "127.0.0.1", "::1", "192.168.1.20", "fe80::1"])
    func withoutAPublicURLOnlyTheLoopbackNamesAndTheBoundAddressAreServed(bind: String) {
        let policy = SitePolicy.forServer(host: bind)
        for host in ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:80", "[::1]", "[::1]:8000"] {
            #expect(policy.site(of: request([("Host", host)]), peer: nil) != nil, "\(host)")
        }
        for host in ["evil.example", "rebind.evil.example:8000", "0.0.0.0:8000", "[::]:8000", "192.168.1.21"] {
            #expect(policy.site(of: request([("Host", host)]), peer: nil) == nil, "\(host)")
        }
        let bound = bind.contains(":") ? "[\(bind)]:8000" : "\(bind):8000"
        let wildcard = bind == "0.0.0.0" || bind == "::"
        #expect((policy.site(of: request([("Host", bound)]), peer: nil) != nil) == !wildcard)
    }

    /// Issue 48: a trusted proxy that passes on a client's own `X-Forwarded-Host` or `Forwarded: host=` must not make
    /// another site this one: without a public URL the forwarded host is held to the local names too.
    @Test func withoutAPublicURLATrustedProxysForwardedHostMustBeALocalName() {
        let policy = SitePolicy.forServer(host: "127.0.0.1", trustedProxies: proxy)
        let peer = IPAddress("127.0.0.1")
        for field in [("X-Forwarded-Host", "evil.example"), ("Forwarded", "proto=http;host=evil.example")] {
            #expect(policy.site(of: request([("Host", "127.0.0.1:8080"), field]), peer: peer) == nil, "\(field)")
        }
        #expect(
            policy.site(of: request([("Host", "127.0.0.1:8000"), ("X-Forwarded-Host", "localhost:8080")]), peer: peer)
                == Site(scheme: "http", host: "localhost", port: 8080))
    }

    /// A request naming no site still has a scheme: the public URL's, else a trusted proxy's word, else http; what
    /// decides HSTS on a 421.
    @Test func theSchemeOfARequestNamingNoSite() {
        let evil = request([("Host", "evil.example"), ("X-Forwarded-Proto", "https")])
        #expect(SitePolicy.forServer(host: "127.0.0.1", publicURL: habits).scheme(of: evil, peer: nil) == "https")
        let behindProxy = SitePolicy.forServer(host: "127.0.0.1", trustedProxies: proxy)
        #expect(behindProxy.scheme(of: evil, peer: IPAddress("127.0.0.1")) == "https")
        #expect(behindProxy.scheme(of: evil, peer: IPAddress("10.0.0.1")) == "http")
    }

    /// DNS rebinding on every bind address: with a public URL, only its host and port are this dashboard.
    @Test(arguments: ["0.0.0.0", "127.0.0.1", "192.168.1.20"])
    func withAPublicURLOnlyItsHostIsServed(bind: String) {
        let policy = SitePolicy.forServer(host: bind, publicURL: habits)
        #expect(policy.site(of: request([("Host", "habits.example")]), peer: nil) == habits.site)
        #expect(policy.site(of: request([("Host", "HABITS.example:443")]), peer: nil) == habits.site)
        #expect(policy.site(of: request([("Host", "rebind.evil.example")]), peer: nil) == nil)
        #expect(policy.site(of: request([("Host", "habits.example:8443")]), peer: nil) == nil)
        #expect(policy.site(of: request([("Host", "127.0.0.1:8000")]), peer: nil) == nil)
    }

    @Test func withAPublicURLATrustedProxysForwardedHostMustBeIt() {
        let policy = SitePolicy.forServer(host: "127.0.0.1", publicURL: habits, trustedProxies: proxy)
        let good = request([("Host", "127.0.0.1:8000"), ("X-Forwarded-Host", "habits.example")])
        let bad = request([("Host", "habits.example"), ("X-Forwarded-Host", "evil.example")])
        #expect(policy.site(of: good, peer: IPAddress("127.0.0.1")) == habits.site)
        #expect(policy.site(of: bad, peer: IPAddress("127.0.0.1")) == nil)
        // From an untrusted peer the forwarded host is not read: its Host must be the public one itself.
        #expect(policy.site(of: good, peer: IPAddress("10.0.0.1")) == nil)
        #expect(policy.site(of: bad, peer: IPAddress("10.0.0.1")) == habits.site)
    }

    @Test func thePathPrefixComesFromThePublicURL() {
        #expect(SitePolicy(publicURL: PublicURL("https://example.org/habits/")).pathPrefix == PathPrefix("/habits"))
        #expect(SitePolicy().pathPrefix == .none)
    }
}
