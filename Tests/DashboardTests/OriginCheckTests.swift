import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct OriginCheckTests {
    let check = OriginCheck()

    func post(_ headers: [(String, String)]) -> Request {
        Request(method: .post, target: "/habits/Yoga/favorite", headers: HTTPHeaders(headers))
    }

    @Test(arguments: [
        [("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8000")],
        [("Host", "LOCALHOST:8000"), ("Origin", "http://localhost:8000")],
        [("Host", "example.org"), ("Origin", "http://example.org:80")],
        [("Host", "[::1]:8000"), ("Origin", "http://[::1]:8000")],
        [("Host", "127.0.0.1:8000"), ("Referer", "http://127.0.0.1:8000/habits?x=1")],
    ])
    func acceptsSameSite(headers: [(String, String)]) {
        #expect(check.isSameSite(post(headers)))
        #expect(throws: Never.self) { try check.verify(post(headers)) }
    }

    @Test(arguments: [
        [("Host", "127.0.0.1:8000"), ("Origin", "http://evil.example")],
        [("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8001")],
        [("Host", "127.0.0.1:8000"), ("Origin", "https://127.0.0.1:8000")],
        [("Host", "127.0.0.1:8000"), ("Origin", "null")],
        [("Host", "127.0.0.1:8000"), ("Origin", "")],
        [("Host", "127.0.0.1:8000"), ("Referer", "http://evil.example/page")],
        [("Host", "127.0.0.1:8000"), ("Referer", "http://127.0.0.1:8000.evil.example/")],
        [("Host", "127.0.0.1:8000"), ("Referer", "http://127.0.0.1:8000@evil.example/")],
        // Origin wins over Referer: a cross-site Origin is not rescued by a same-site Referer.
        [("Host", "127.0.0.1:8000"), ("Origin", "http://evil.example"), ("Referer", "http://127.0.0.1:8000/")],
        [("Host", "127.0.0.1:8000")],
        [("Origin", "http://127.0.0.1:8000")],
        [("Host", "evil.example/x"), ("Origin", "http://evil.example")],
        // Regression: with two Origin (or Referer) fields the first one decided; no browser sends two, so refuse.
        [("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8000"), ("Origin", "http://evil.example")],
        [("Host", "127.0.0.1:8000"), ("Referer", "http://127.0.0.1:8000/"), ("Referer", "http://evil.example/")],
    ])
    func refusesOtherSitesAndMissingHeaders(headers: [(String, String)]) {
        #expect(!check.isSameSite(post(headers)))
        #expect(throws: HTTPError(.forbidden, "This form was sent from another site, so nothing was changed.")) {
            try check.verify(post(headers))
        }
    }

    @Test func httpsSiteComparesWithDefaultPort443() {
        let https = OriginCheck(scheme: "https")
        #expect(https.isSameSite(post([("Host", "dash.example"), ("Origin", "https://dash.example")])))
        #expect(!https.isSameSite(post([("Host", "dash.example"), ("Origin", "http://dash.example")])))
    }

    /// Regression (DNS rebinding): a page on `rebind.evil.example`, re-pointed at 127.0.0.1, posts with a matching
    /// Host and Origin. A dashboard bound to loopback only accepts the names a browser on this machine uses for it.
    @Test func loopboundDashboardRefusesARebindingHostName() {
        let local = OriginCheck.forServer(host: "127.0.0.1")
        #expect(
            !local.isSameSite(
                post([("Host", "rebind.evil.example:8000"), ("Origin", "http://rebind.evil.example:8000")])))
        #expect(local.isSameSite(post([("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8000")])))
        #expect(local.isSameSite(post([("Host", "LocalHost:8000"), ("Origin", "http://localhost:8000")])))
        #expect(local.isSameSite(post([("Host", "[::1]:8000"), ("Origin", "http://[::1]:8000")])))
    }

    /// Issue 48: bound to another address, that address is a name of the dashboard too, and still no other is (a
    /// wildcard bind adds none: a LAN or proxy name needs `--public-url`).
    @Test(arguments: ["0.0.0.0", "192.168.1.20", "dash.example"])
    func dashboardOnOtherAddressesAcceptsItsBoundAddressOnly(host: String) {
        let check = OriginCheck.forServer(host: host)
        let bound = post([("Host", "\(host):8000"), ("Origin", "http://\(host):8000")])
        #expect(check.isSameSite(bound) == (host != "0.0.0.0"))
        #expect(!check.isSameSite(post([("Host", "evil.example:8000"), ("Origin", "http://evil.example:8000")])))
    }

    /// Regression (issue 20): behind nginx terminating TLS (`Host: 127.0.0.1:PORT`, `X-Forwarded-Proto: https`) every
    /// form was refused, because the check compared the browser's `https://` Origin with `http://` + Host.
    @Test func behindATrustedTLSProxyTheHTTPSOriginIsSameSite() {
        let check = OriginCheck.forServer(host: "127.0.0.1", trustedProxies: AddressRange.list("127.0.0.1")!)
        let request = post([
            ("Host", "127.0.0.1:8443"), ("Origin", "https://127.0.0.1:8443"), ("X-Forwarded-Proto", "https"),
        ])
        #expect(check.isSameSite(request, peer: IPAddress("127.0.0.1")))
        #expect(!check.isSameSite(request, peer: IPAddress("10.0.0.7")))
        #expect(!check.isSameSite(request))
    }

    @Test func withAPublicURLTheOriginMustBeIt() {
        let check = OriginCheck.forServer(host: "0.0.0.0", publicURL: PublicURL("https://habits.example/app/"))
        #expect(check.isSameSite(post([("Host", "habits.example"), ("Origin", "https://habits.example")])))
        #expect(!check.isSameSite(post([("Host", "habits.example"), ("Origin", "http://habits.example")])))
        #expect(!check.isSameSite(post([("Host", "evil.example"), ("Origin", "https://evil.example")])))
    }
}
