import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PublicURLTests {
    @Test(arguments: [
        ("https://habits.example", "https", "habits.example", 443, ""),
        ("https://habits.example/", "https", "habits.example", 443, ""),
        ("https://Example.ORG/habits/", "https", "example.org", 443, "/habits"),
        ("https://example.org/a/b", "https", "example.org", 443, "/a/b"),
        ("http://127.0.0.1:8443/x/", "http", "127.0.0.1", 8443, "/x"),
        ("https://[::1]:9000/", "https", "[::1]", 9000, ""),
    ])
    func parsesOriginAndPrefix(text: String, scheme: String, host: String, port: Int, prefix: String) throws {
        let url = try #require(PublicURL(text))
        #expect(url.site == Site(scheme: scheme, host: host, port: port))
        #expect(url.pathPrefix == prefix)
    }

    /// Only a plain origin and prefix: a query, a fragment, user info, a dot segment or an escape would make the
    /// prefix mean something else in some of the URLs it is put on.
    @Test(arguments: [
        "", "habits.example", "ftp://habits.example/", "https://", "https://user@habits.example/",
        "https://habits.example/?a=1", "https://habits.example/#top", "https://habits.example/a/../b",
        "https://habits.example/a%2Fb/", "https://habits.example/a b/", "https://habits.example/\"x",
    ])
    func refusesAnythingButAPlainOriginAndPath(text: String) {
        #expect(PublicURL(text) == nil)
    }

    @Test func describesItselfWithATrailingSlashAndWithoutADefaultPort() throws {
        #expect(try #require(PublicURL("https://example.org:443/habits")).description == "https://example.org/habits/")
        #expect(try #require(PublicURL("http://127.0.0.1:8080")).description == "http://127.0.0.1:8080/")
    }
}
