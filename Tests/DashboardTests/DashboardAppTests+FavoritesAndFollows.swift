import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Favourites and follows through the forms: the cookie minted once, what a toggle saves and where it returns, and
/// every bad toggle (unknown habit, cross-site POST, foreign return path, hostile cookie) refused with nothing saved.
extension DashboardAppTests {
    @Test func favoritingMintsACookieOnceAndShowsTheHabitInFavoritesAndOnHome() async throws {
        let response = try await post("/habits/Yoga/favorite", form: "favorite=true&return=%2Fhabits")
        #expect(response.status == .seeOther)
        #expect(response.headers["Location"] == "/habits")
        let setCookie = try #require(response.headers["Set-Cookie"])
        #expect(setCookie.hasPrefix("habits_browser="))
        #expect(setCookie.contains("; Max-Age=63072000"))
        #expect(setCookie.contains("; Path=/"))
        #expect(setCookie.contains("; HttpOnly"))
        #expect(setCookie.contains("; SameSite=Lax"))
        let cookie = try cookie(from: response)
        #expect(try settingsFiles() == [try browserID(cookie).rawValue + ".json"])

        let habits = html(try await get("/habits", cookie: cookie))
        let favorites = try #require(habits.range(of: "Favorites</h2>"))
        let exercise = try #require(habits.range(of: "Exercise</h2>"))
        let yoga = try #require(habits.range(of: #"href="/habits/Yoga""#))
        #expect(favorites.lowerBound < yoga.lowerBound && yoga.lowerBound < exercise.lowerBound)
        #expect(html(try await get("/", cookie: cookie)).contains("Leaderboard"))

        let again = try await post("/habits/Yoga/favorite", form: "favorite=false", cookie: cookie)
        #expect(again.headers["Set-Cookie"] == nil, "the cookie is minted on the first change only")
        #expect(again.headers["Location"] == "/habits/Yoga")
        #expect(try await store.load(try browserID(cookie)).favoriteHabits.isEmpty)
    }

    @Test func repeatingAFavoriteDoesNotToggleItBack() async throws {
        let cookie = try cookie(from: try await post("/habits/Yoga/favorite", form: "favorite=true"))
        _ = try await post("/habits/Yoga/favorite", form: "favorite=true", cookie: cookie)
        #expect(try await store.load(try browserID(cookie)).favoriteHabits == ["Yoga"])
    }

    @Test func followingShowsTheFollowingMessageOnHome() async throws {
        let response = try await post("/people/user3/follow", form: "follow=true&return=%2Fpeople")
        #expect(response.headers["Location"] == "/people")
        let home = html(try await get("/", cookie: try cookie(from: response)))
        #expect(home.contains("Following"))
        #expect(home.contains(#"<a class="person-name c-"#))
        #expect(home.contains("Currently 1st, ahead of you (3rd) in <a href=\"/habits/Yoga\">Yoga</a>."))
    }

    /// Regression (audit): unfavouriting a habit that is not a favourite, or unfollowing someone not followed, is no
    /// change, and SPEC §7 mints the cookie "on the first change" only; it used to mint one and write a file.
    @Test(arguments: [
        ("/habits/Yoga/favorite", "favorite=false"), ("/people/user3/follow", "follow=false"),
        ("/people/gone/follow", "follow=false"),
    ])
    func postThatChangesNothingMintsNoCookieAndWritesNoFile(target: String, form: String) async throws {
        let response = try await post(target, form: form)
        #expect(response.status == .seeOther)
        #expect(response.headers["Set-Cookie"] == nil)
        #expect(try settingsFiles().isEmpty)
    }

    @Test func favoritingAnUnknownHabitIs404AndSavesNothing() async throws {
        let response = try await post("/habits/Nope/favorite", form: "favorite=true")
        #expect(response.status == .notFound)
        #expect(response.headers["Set-Cookie"] == nil)
        #expect(try settingsFiles().isEmpty)
    }

    @Test(arguments: [Optional("http://evil.example"), "null", nil])
    func crossSitePostIs403AndChangesNothing(origin: String?) async throws {
        let response = try await post("/habits/Yoga/favorite", form: "favorite=true", origin: origin)
        #expect(response.status == .forbidden)
        #expect(response.headers["Set-Cookie"] == nil)
        #expect(try settingsFiles().isEmpty)
        let log = try await post("/log", form: "habit=Yoga", origin: origin)
        #expect(log.status == .forbidden)
        #expect(api.logged.isEmpty)
    }

    @Test(arguments: ["//evil.example/", "/\\evil.example", "http://evil.example/", "/ok\r\nSet-Cookie: x=1"])
    func returnPathMustBeLocal(returnTo: String) async throws {
        let form = "favorite=true&return=" + PercentEncoding.encodeQueryComponent(returnTo)
        let response = try await post("/habits/Yoga/favorite", form: form)
        #expect(response.headers["Location"] == "/habits/Yoga")
    }

    @Test(arguments: ["../../etc/passwd", "AAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAA+A"])
    func hostileCookieIsTreatedAsNoCookie(value: String) async throws {
        let page = try await get("/habits", cookie: "habits_browser=\(value)")
        #expect(page.status == .ok)
        let response = try await post("/habits/Yoga/favorite", form: "favorite=true", cookie: "habits_browser=\(value)")
        #expect(response.status == .seeOther)
        let minted = try cookie(from: response)
        #expect(try settingsFiles() == [try browserID(minted).rawValue + ".json"])
        #expect(try settingsFiles()[0].utf8.count == 27)
    }

    /// Regression (issue 8): at the cap every new browser got 503 for good; now the least valuable file goes.
    @Test func newBrowsersOverTheCapAreSavedAndNeverGet503() async throws {
        for _ in 0..<3 { _ = try await post("/habits/Yoga/favorite", form: "favorite=true") }
        let response = try await post("/habits/Yoga/favorite", form: "favorite=true")
        #expect(response.status == .seeOther)
        let cookie = try cookie(from: response)
        #expect(try settingsFiles().count == 3)
        #expect(try settingsFiles().contains(try browserID(cookie).rawValue + ".json"))
        #expect(html(try await get("/habits", cookie: cookie)).contains("Favorites</h2>"))
    }

    @Test func aToggleReturnsToTheItemItChanged() async throws {
        let target = "/habits#" + Links.elementID(habit: "Yoga")
        let response = try await post(
            "/habits/Yoga/favorite", form: "favorite=true&return=" + PercentEncoding.encodeQueryComponent(target))
        #expect(response.headers["Location"] == target)
        #expect(html(try await get("/habits")).contains(#"id="\#(Links.elementID(habit: "Yoga"))""#))
    }
}
