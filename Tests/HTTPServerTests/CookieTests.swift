import HTTPCore
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

    /// Found by Fuzz/FormsFuzz: with nothing else to escape, `%` went out raw, so `a%20` and `a ` both became `a%20`.
    @Test func percentSignIsEncodedEvenWhenNothingElseNeedsEncoding() {
        #expect(Cookie(name: "a", value: "a%20").headerValue.hasPrefix("a=a%2520;"))
        #expect(Cookie(name: "a", value: "a ").headerValue.hasPrefix("a=a%20;"))
        #expect(Cookie(name: "n%", value: "v").headerValue.hasPrefix("n%25=v;"))
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

    /// Found by Fuzz/FormsFuzz: splitting `Character`s kept `;` + U+0301 (one grapheme) inside a cookie, so the
    /// server saw one cookie where a browser sends two.
    @Test func separatorsFollowedByACombiningMarkStillSeparate() {
        let request = Request(
            method: .get, target: "/", headers: HTTPHeaders([("Cookie", "a=1;\u{301}b=2; c=\u{301}3 ; \u{301} d =4")]))
        #expect(request.cookies == ["a": "1", "\u{301}b": "2", "c": "\u{301}3", "\u{301} d": "4"])
    }

    @Test func noCookieHeaderGivesNoCookies() {
        #expect(Request(method: .get, target: "/").cookies.isEmpty)
    }
}
