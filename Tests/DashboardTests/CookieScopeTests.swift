import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 2: the cookies' names and path follow the public URL.
@Suite struct CookieScopeTests {
    func scope(_ publicURL: String?) -> CookieScope {
        CookieScope(site: SitePolicy(publicURL: publicURL.flatMap(PublicURL.init)))
    }

    @Test func httpsAtTheRootUsesHostPrefixedNamesAndStillReadsTheOldOnes() {
        let root = scope("https://example.org/")
        #expect(root.browserName == "__Host-habits_browser" && root.visitName == "__Host-habits_visit")
        #expect(root.legacyBrowserName == "habits_browser" && root.legacyVisitName == "habits_visit")
        #expect(root.path == "/" && root.alwaysSecure)
        let cookie = root.cookie(name: root.browserName, value: "v", isHTTPS: false).headerValue
        #expect(cookie == "__Host-habits_browser=v; Max-Age=63072000; Path=/; Secure; HttpOnly; SameSite=Lax")
    }

    /// `__Host-` requires `Path=/`, so under a prefix the names stay and the path is the prefix.
    @Test func underAPrefixTheNamesStayAndThePathIsThePrefix() {
        let prefixed = scope("https://example.org/habits/")
        #expect(prefixed.browserName == "habits_browser" && prefixed.legacyBrowserName == nil)
        #expect(prefixed.path == "/habits/" && !prefixed.alwaysSecure)
        #expect(prefixed.cookie(name: "n", value: "v", isHTTPS: true).headerValue.contains("; Path=/habits/; Secure"))
    }

    @Test func plainHTTPOrNoPublicURLKeepsTheNamesAndSecureFollowsTheRequest() {
        for plain in [scope("http://example.org/"), scope(nil)] {
            #expect(plain.browserName == "habits_browser" && plain.visitName == "habits_visit")
            #expect(plain.legacyBrowserName == nil && plain.path == "/")
            #expect(!plain.cookie(name: "n", value: "v", isHTTPS: false).headerValue.contains("Secure"))
            #expect(plain.cookie(name: "n", value: "v", isHTTPS: true).headerValue.contains("; Secure"))
        }
    }
}
