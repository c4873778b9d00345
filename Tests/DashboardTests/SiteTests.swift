import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// `Site(scheme:authority:)` reads a plain `name[:port]` itself (issue 21: URLComponents cost about 3 µs of a warm
/// page); what it reads that way must be exactly what the URL parser reads.
@Suite struct SiteTests {
    static let plain = [
        "127.0.0.1:8000", "localhost", "LOCALHOST:80", "dash.example", "Dash.Example:8443", "a-b.c-d.example:1",
        "127.0.0.1:65535", "localhost.", "10.0.0.1",
    ]
    static let other = [
        "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:08000", "127.0.0.1:65536", "127.0.0.1:99999999999999999999",
        ":8000", "[::1]:8000", "[::1]", "xn--bcher-kva.example", "user@host", "host/path", "host?q", "host#f",
        "host name", "ho%41st", "XN--bcher-kva.example", "a--b.example", "host:80:81", "", "ünïcode.example",
        "host_name",
    ]

    @Test(arguments: plain) func aPlainAuthorityIsReadDirectlyAsTheURLParserReadsIt(authority: String) {
        for scheme in ["http", "https", "HTTP"] {
            let direct = Site.plain(scheme: scheme, authority: authority)
            #expect(direct != nil, "\(authority) is plain")
            #expect(direct == Site(url: scheme + "://" + authority), "\(scheme)://\(authority)")
        }
    }

    @Test(arguments: other) func anythingElseTakesTheURLParsersWay(authority: String) {
        #expect(Site.plain(scheme: "http", authority: authority) == nil, "\(authority)")
    }

    @Test func anotherSchemeIsNeverPlain() {
        #expect(Site.plain(scheme: "ftp", authority: "localhost") == nil)
        #expect(Site(scheme: "ftp", authority: "localhost") == nil)
    }
}
