import Testing

@testable import HTTPServer

/// The request-target forms of RFC 9112 §3.2, fed as bytes through the parser (whole and split at every byte).
@Suite struct RequestLineTests {
    /// RFC 9112 §3.2.2: a server must accept the absolute-form; it routes on the path and query.
    @Test(arguments: [
        ("http://example.com/a/b?x=1", "/a/b?x=1", "example.com"),
        ("HTTP://Example.com:8080/", "/", "Example.com:8080"),
        ("https://h", "/", "h"),
        ("http://h?q=1", "/?q=1", "h"),
        ("http://[::1]:8000/people/user1", "/people/user1", "[::1]:8000"),
        ("http://127.0.0.1//x", "//x", "127.0.0.1"),
    ])
    func absoluteFormIsReducedToItsPathAndQuery(target: String, path: String, authority: String) throws {
        let outcome = ParserDriver.parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")
        let request = try #require(outcome.requests.first)
        #expect(request.head.target == path)
        #expect(request.headers.values(for: "Host") == [authority])
    }

    /// §3.2.2: the target's authority wins over the Host field, which is replaced (not duplicated), so the
    /// router and the Origin check see one authority.
    @Test func theTargetsAuthorityReplacesTheHostField() throws {
        let outcome = ParserDriver.parse(
            "POST http://127.0.0.1:8000/log HTTP/1.1\r\nhost: evil.example\r\nContent-Length: 0\r\n\r\n")
        let request = try #require(outcome.requests.first)
        #expect(request.headers.values(for: "Host") == ["127.0.0.1:8000"])
        #expect(request.headers.fields.count == 2)
    }

    /// §3.2: HTTP/1.1 still needs exactly one valid Host field, whatever the target says.
    @Test(arguments: [
        ("GET http://h/ HTTP/1.1\r\n\r\n", RequestParseError.missingHost),
        ("GET http://h/ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .duplicateHost),
        ("GET http://h/ HTTP/1.1\r\nHost: a b\r\n\r\n", .invalidHost),
    ])
    func absoluteFormStillFollowsTheHostRules(request: String, error: RequestParseError) {
        ParserDriver.expectRejection(request, error)
    }

    /// HTTP/1.0 needs no Host; the authority becomes the request's Host.
    @Test func http10AbsoluteFormGetsItsHostFromTheTarget() throws {
        let outcome = ParserDriver.parse("GET http://h:81/x HTTP/1.0\r\n\r\n")
        #expect(try #require(outcome.requests.first).headers.values(for: "Host") == ["h:81"])
    }

    /// §3.2.4: `OPTIONS http://h` (no path) is the absolute form of `OPTIONS *`.
    @Test func optionsWithAnEmptyPathAsksAboutTheServer() throws {
        let outcome = ParserDriver.parse("OPTIONS http://h HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try #require(outcome.requests.first).head.target == "*")
    }

    /// CONNECT's authority-form belongs to proxies, which we are not.
    @Test func authorityFormIsRefused() {
        ParserDriver.expectRejection("CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n", .invalidTarget)
    }
}
