import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 2: `__Host-` names over https at the root, the prefix as every cookie's path, `Secure` over https,
/// and a tossed settings cookie can never redirect a change into another browser's settings.
extension DashboardAppTests {
    /// A signed settings cookie value for a browser that has `favorite` among its favourites.
    func browser(favoriting favorite: String) async throws -> (id: BrowserID, value: String) {
        let id = BrowserID.random()
        try await store.update(id) { $0.favoriteHabits.append(favorite) }
        return (id, app.settings.signers.current!.cookieValue(for: id))
    }

    func setCookies(_ response: Response) -> [String] { response.headers.values(for: "Set-Cookie") }

    @Test func overHTTPSAtTheRootBothCookiesAreHostPrefixedAndSecure() async throws {
        let root = try appAt("https://example.org/")
        let host = ("Host", "example.org")
        let posted = try await send(
            root, .post, "/habits/Yoga/favorite", [host, ("Origin", "https://example.org")], form: "favorite=true")
        let minted = try #require(setCookies(posted).first)
        #expect(
            minted.hasPrefix("__Host-habits_browser=") && minted.hasSuffix("; Path=/; Secure; HttpOnly; SameSite=Lax"))
        let page = try await send(root, .get, "/", [host, ("Cookie", String(minted.split(separator: ";")[0]))])
        let visit = try #require(setCookies(page).first { $0.hasPrefix("__Host-habits_visit=") })
        #expect(visit.hasSuffix("; Path=/; Secure; HttpOnly; SameSite=Lax"))
        #expect(setCookies(page).count == 1)
    }

    /// The visit cookie was `Path=/` and never `Secure`, even under a prefix over https.
    @Test func underAPrefixTheVisitCookieHasThePrefixAsPathAndIsSecure() async throws {
        let prefixed = try appAt("https://example.org/habits/")
        let (_, value) = try await browser(favoriting: "Yoga")
        let page = try await send(
            prefixed, .get, "/", [("Host", "example.org"), ("Cookie", "habits_browser=" + value)])
        let visit = try #require(setCookies(page).first { $0.hasPrefix("habits_visit=") })
        #expect(visit.hasSuffix("; Path=/habits/; Secure; HttpOnly; SameSite=Lax"))
    }

    /// Nobody loses their settings: the old name is read and the cookie reissued under `__Host-`, the old one deleted.
    @Test func anOldNameIsReadOnceAndReissuedUnderTheHostPrefixedName() async throws {
        let root = try appAt("https://example.org/")
        let (id, value) = try await browser(favoriting: "Yoga")
        let page = try await send(
            root, .get, "/habits", [("Host", "example.org"), ("Cookie", "habits_browser=" + value)])
        #expect(html(page).contains("Favorites"))
        let cookies = setCookies(page)
        #expect(
            cookies.contains("__Host-habits_browser=\(value); Max-Age=63072000; Path=/; Secure; HttpOnly; SameSite=Lax")
        )
        #expect(cookies.contains("habits_browser=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax"))
        // A change through the old name is saved and reissues it too (a form answers 303, not a page).
        let posted = try await send(
            root, .post, "/habits/Yoga/favorite",
            [("Host", "example.org"), ("Origin", "https://example.org"), ("Cookie", "habits_browser=" + value)],
            form: "favorite=false")
        #expect(posted.status == .seeOther)
        #expect(
            setCookies(posted).first
                == "__Host-habits_browser=\(value); Max-Age=63072000; Path=/; Secure; HttpOnly; SameSite=Lax")
        #expect(try await store.load(id).favoriteHabits == [])
    }

    /// The scan's attack: `habits_browser=<attacker>; habits_browser=<victim>` sent the victim's favourite into the
    /// attacker's settings. Two cookies that verify to different browsers now refuse the change, and save nothing.
    @Test func aTossedSettingsCookieInFrontOfTheRealOneRefusesTheChangeWith400() async throws {
        let (attacker, attackerValue) = try await browser(favoriting: "Run")
        let (victim, victimValue) = try await browser(favoriting: "Yoga")
        let response = try await post(
            "/habits/Yoga/favorite", form: "favorite=false",
            cookie: "habits_browser=\(attackerValue); habits_browser=\(victimValue)")
        #expect(response.status == .badRequest)
        #expect(html(response).contains("two different settings cookies"))
        #expect(setCookies(response).isEmpty)
        #expect(try await store.load(attacker).favoriteHabits == ["Run"])
        #expect(try await store.load(victim).favoriteHabits == ["Yoga"])
        // The page shows neither browser's settings meanwhile.
        let page = try await get("/habits", cookie: "habits_browser=\(attackerValue); habits_browser=\(victimValue)")
        #expect(page.status == .ok && !html(page).contains("Favorites"))
    }

    /// Over https at the root a neighbour can only toss the old name, and the `__Host-` cookie wins over it.
    @Test func aTossedOldNameCannotMoveABrowserThatHasItsHostPrefixedCookie() async throws {
        let root = try appAt("https://example.org/")
        let (attacker, attackerValue) = try await browser(favoriting: "Run")
        let (victim, victimValue) = try await browser(favoriting: "Yoga")
        let response = try await send(
            root, .post, "/habits/Yoga/favorite",
            [
                ("Host", "example.org"), ("Origin", "https://example.org"),
                ("Cookie", "habits_browser=\(attackerValue); __Host-habits_browser=\(victimValue)"),
            ], form: "favorite=false")
        #expect(response.status == .seeOther && setCookies(response).isEmpty)
        #expect(try await store.load(attacker).favoriteHabits == ["Run"])
        #expect(try await store.load(victim).favoriteHabits == [])
    }
}
