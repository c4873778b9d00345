import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 47 point 4: a Favorite or Follow form the dashboard did not write (a value other than `true`/`false`, no
/// field, an empty body) is a 400 that says what was wrong and changes nothing; it used to toggle.
extension DashboardAppTests {
    @Test(arguments: [
        ("/habits/Yoga/favorite", "favorite=maybe"), ("/habits/Yoga/favorite", ""),
        ("/habits/Yoga/favorite", "return=%2F"), ("/habits/Yoga/favorite", "favorite=TRUE"),
        ("/habits/Yoga/favorite", "favorite="), ("/habits/Yoga/favorite", "follow=true"),
        ("/people/user3/follow", "follow=1"), ("/people/user3/follow", ""), ("/people/user3/follow", "favorite=true"),
    ])
    func aToggleFormThatDoesNotSayTrueOrFalseIsA400AndChangesNothing(target: String, form: String) async throws {
        let response = try await post(target, form: form)
        #expect(response.status == .badRequest)
        let field = target.hasSuffix("/favorite") ? "favorite" : "follow"
        #expect(html(response).contains("The form must say \(field)=true or \(field)=false. Nothing was changed."))
        #expect(response.headers["Set-Cookie"] == nil, "no browser is minted for a refused form")
        #expect(try settingsFiles().isEmpty)
    }

    @Test func aBadToggleLeavesAnExistingBrowsersSettingsAsTheyWere() async throws {
        let cookie = try cookie(from: try await post("/habits/Yoga/favorite", form: "favorite=true"))
        _ = try await post("/people/user3/follow", form: "follow=true", cookie: cookie)
        for (target, form) in [
            ("/habits/Yoga/favorite", "favorite=maybe"), ("/habits/Yoga/favorite", ""),
            ("/people/user3/follow", "follow=no"),
        ] {
            #expect(try await post(target, form: form, cookie: cookie).status == .badRequest)
        }
        let settings = try await store.load(try browserID(cookie))
        #expect(settings.favoriteHabits == ["Yoga"])
        #expect(settings.followedUserIDs == ["user3"])
    }
}
