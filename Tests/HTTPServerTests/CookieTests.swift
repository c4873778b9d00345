import Testing

@testable import HTTPServer

@Suite struct CookieTests {
    @Test func rendersAllAttributes() {
        let cookie = Cookie(
            name: "browser", value: "abc123", maxAge: 31_536_000, path: "/", httpOnly: true, secure: true,
            sameSite: .strict)
        #expect(cookie.headerValue == "browser=abc123; Max-Age=31536000; Path=/; Secure; HttpOnly; SameSite=Strict")
    }

    @Test func defaultsSuitAFirstPartySessionCookie() {
        #expect(Cookie(name: "a", value: "b").headerValue == "a=b; Path=/; HttpOnly; SameSite=Lax")
    }

    /// A value carrying `;` or CR LF must not add attributes or headers.
    @Test func hostileValuesAreEncodedNotInjected() {
        let cookie = Cookie(name: "a", value: "x; Domain=evil.com\r\nSet-Cookie: b=c", path: nil, sameSite: nil)
        let rendered = cookie.headerValue
        #expect(!rendered.contains("; Domain") && !rendered.contains("\r") && !rendered.contains("\n"))
        #expect(rendered == "a=x%3B%20Domain=evil.com%0D%0ASet-Cookie:%20b=c; HttpOnly")
    }

    @Test func twoCookiesGiveTwoSetCookieFields() {
        var response = Response.text("ok")
        response.setCookie(Cookie(name: "a", value: "1"))
        response.setCookie(Cookie(name: "b", value: "2"))
        #expect(response.headers.values(for: "Set-Cookie").count == 2)
    }

    @Test func requestCookiesParseAcrossFieldsFirstWins() {
        let request = Request(
            method: .get, target: "/",
            headers: HTTPHeaders([("Cookie", "a=1; b=\"quoted\"; bad; =x"), ("Cookie", "a=2;c=3")]))
        #expect(request.cookies == ["a": "1", "b": "quoted", "c": "3"])
    }

    @Test func oneCookieByNameIsWhatTheDictionaryGives() {
        let request = Request(
            method: .get, target: "/",
            headers: HTTPHeaders([
                ("Cookie", "a=1; b=\"quoted\"; bad; =x;\t d = spaced ;e=\""), ("cookie", "a=2;c=3;é=ü"),
            ]))
        for name in ["a", "b", "c", "d", "e", "é", "bad", "", "x", "A"] {
            #expect(request.cookie(named: name) == request.cookies[name], "\(name)")
        }
        #expect(request.cookie(named: "a") == "1")
        #expect(request.cookie(named: "d") == "spaced")
        #expect(request.cookie(named: "é") == "ü")
        #expect(request.cookie(named: "bad") == nil)
    }

    @Test func noCookieHeaderGivesNoCookies() {
        #expect(Request(method: .get, target: "/").cookies.isEmpty)
    }
}
