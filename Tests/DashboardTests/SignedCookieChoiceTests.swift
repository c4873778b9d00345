import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 2: which of a request's copies of a signed cookie counts.
@Suite struct SignedCookieChoiceTests {
    /// A check that accepts `ok-<n>` and names `n`; anything else is junk.
    static func verify(_ value: String) -> Int? {
        value.hasPrefix("ok-") ? Int(value.dropFirst(3)) : nil
    }

    func request(_ cookies: String) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders([("Cookie", cookies)]))
    }

    func choice(_ cookies: String, legacy: String? = nil) -> SignedCookieChoice<Int> {
        .of(request(cookies), name: "__Host-c", legacyName: legacy, verify: Self.verify)
    }

    @Test func junkCopiesInFrontNeverHideTheOneThatVerifies() {
        let junk = Array(repeating: "__Host-c=junk", count: SignedCookieChoice<Int>.limit - 1)
        #expect(choice((junk + ["__Host-c=ok-7"]).joined(separator: "; ")) == .one(7, legacy: false))
    }

    @Test func twoCopiesThatVerifyToDifferentValuesAreAConflictNotAGuess() {
        #expect(choice("__Host-c=ok-1; __Host-c=ok-2") == .conflicting)
        #expect(choice("__Host-c=ok-1; __Host-c=ok-2").value == nil)
    }

    /// A browser may hold the same cookie under two paths: that is one value, not a conflict.
    @Test func copiesThatVerifyToTheSameValueAreOne() {
        #expect(choice("__Host-c=ok-3; __Host-c=junk; __Host-c=ok-3") == .one(3, legacy: false))
    }

    /// Past the limit the real one could be hiding, so the request is a conflict rather than "no cookie" (which
    /// would mint a new id and replace the browser's cookie).
    @Test func moreCopiesThanTheLimitAreAConflict() {
        let junk = Array(repeating: "__Host-c=junk", count: SignedCookieChoice<Int>.limit)
        #expect(choice((junk + ["__Host-c=ok-7"]).joined(separator: "; ")) == .conflicting)
    }

    /// A cookie tossed under the old name cannot move a browser that has its `__Host-` cookie.
    @Test func theExpectedNameWinsOverTheLegacyOne() {
        #expect(choice("c=ok-9; __Host-c=ok-1", legacy: "c") == .one(1, legacy: false))
    }

    @Test func theLegacyNameIsReadWhenTheExpectedOneIsMissingAndSaysSo() {
        #expect(choice("c=ok-9", legacy: "c") == .one(9, legacy: true))
        #expect(choice("c=ok-9; c=ok-8", legacy: "c") == .conflicting)
        #expect(choice("c=ok-9") == .none)
        #expect(choice("other=ok-9; __Host-c=junk", legacy: "c") == .none)
    }
}
