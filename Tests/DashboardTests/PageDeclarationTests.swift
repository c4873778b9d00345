import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Each page's `PageDeclaration` is true (issue 18 point 3): a setting the page does not read changes neither its
/// render key nor its bytes; one it reads changes both. Every rendering comes from a fresh app, so no render cache
/// can hide bytes that changed under an unchanged key (which would serve one browser's page to another).
@Suite struct PageDeclarationTests {
    /// One fixed instant for every app, so their snapshots, histories and texts agree.
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// A page's bytes and key for a browser with `settings`, from a fresh app.
    struct Rendering {
        var bytes: [UInt8]
        var key: RenderKey
    }

    /// GETs `target` in a fresh app for a browser given `settings` through the forms; `key` names the declaration
    /// and variant the handler uses for it.
    func render(
        _ target: String, _ settings: Settings,
        key: (DashboardApp, SnapshotView, Versioned<Settings>) -> RenderKey
    ) async throws -> Rendering {
        let scripted = try ScriptedApp(name: "declaration", clock: ManualClock(date: Self.date))
        let headers = try await scripted.browser(settings)
        let response = try await scripted.get(target, headers)
        #expect(response.status == .ok, "\(target)")
        let request = Request(
            method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1:8000")] + headers))
        let browser = try await scripted.app.settings.loadVersioned(for: request)
        #expect(Set(browser.value.favoriteHabits) == Set(settings.favoriteHabits))
        let view = try await scripted.snapshots.view()
        return Rendering(bytes: response.body, key: key(scripted.app, view, browser))
    }

    /// The renderings of a page for `base`, for `unread` (differs only in what the page does not read) and for
    /// `read` (differs in what it reads; nil for a page that reads nothing): the first two alike, the third
    /// different, key and bytes.
    func expectDeclarationHolds(
        _ target: String, base: Settings, unread: Settings, read: Settings?,
        key: @escaping (DashboardApp, SnapshotView, Versioned<Settings>) -> RenderKey,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let first = try await render(target, base, key: key)
        let same = try await render(target, unread, key: key)
        #expect(same.key == first.key, "a setting the page does not read", sourceLocation: sourceLocation)
        #expect(same.bytes == first.bytes, "a setting the page does not read", sourceLocation: sourceLocation)
        guard let read else { return }
        let other = try await render(target, read, key: key)
        #expect(other.key != first.key, "a setting the page reads", sourceLocation: sourceLocation)
        #expect(other.bytes != first.bytes, "a setting the page reads", sourceLocation: sourceLocation)
    }

    @Test func homeReadsTheFavouritesAndFollowsAsSets() async throws {
        try await expectDeclarationHolds(
            "/", base: Settings(favoriteHabits: ["Yoga", "Push-ups/Sit-ups"], followedUserIDs: ["user0"]),
            unread: Settings(favoriteHabits: ["Push-ups/Sit-ups", "Yoga"], followedUserIDs: ["user0"]),
            read: Settings(favoriteHabits: ["Yoga", "Push-ups/Sit-ups"], followedUserIDs: ["user0", "user3"])
        ) { app, view, browser in
            app.web.pages.key(HomePage.declaration, query: PageCaching.liveQuery(paused: false), view, browser)
        }
    }

    @Test func habitsReadsTheFavouritesNotTheFollows() async throws {
        try await expectDeclarationHolds(
            "/habits", base: Settings(favoriteHabits: ["Yoga"]),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user3"]),
            read: Settings(favoriteHabits: ["Yoga", "Push-ups/Sit-ups"])
        ) { app, view, browser in app.web.pages.key(HabitsListPage.declaration, view, browser) }
    }

    @Test func aHabitReadsOnlyWhetherItIsAFavourite() async throws {
        try await expectDeclarationHolds(
            "/habits/Yoga", base: Settings(),
            unread: Settings(favoriteHabits: ["Push-ups/Sit-ups"], followedUserIDs: ["user0"]),
            read: Settings(favoriteHabits: ["Yoga"])
        ) { app, view, browser in
            app.web.pages.key(
                HabitDetailPage.declaration, item: "Yoga", query: PageCaching.liveQuery(paused: false), view, browser)
        }
    }

    @Test func peopleReadsTheFollowsNotTheFavourites() async throws {
        try await expectDeclarationHolds(
            "/people", base: Settings(followedUserIDs: ["user0"]),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user0"]),
            read: Settings(followedUserIDs: ["user0", "user3"])
        ) { app, view, browser in app.web.pages.key(PeoplePage.declaration(sort: .name), view, browser) }
    }

    @Test func aPersonReadsOnlyWhetherTheyAreFollowed() async throws {
        try await expectDeclarationHolds(
            "/people/user0", base: Settings(),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user3"]),
            read: Settings(followedUserIDs: ["user0"])
        ) { app, view, browser in
            app.web.pages.key(
                PersonDetailPage.declaration, item: "user0", query: PageCaching.liveQuery(paused: false), view,
                browser)
        }
    }

    @Test func logHabitReadsTheFavouritesNotTheFollows() async throws {
        try await expectDeclarationHolds(
            "/log", base: Settings(favoriteHabits: ["Yoga"]),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user0"]),
            read: Settings(favoriteHabits: ["Yoga", "Push-ups/Sit-ups"])
        ) { app, view, browser in app.web.pages.key(LogHabitPage.declaration, view, browser) }
    }

    /// The fragments of a habit and a person read no settings at all: one rendering for every browser, under a key
    /// made without any settings (`sharedKey`), and the same bytes whatever the browser favourites or follows.
    @Test func aHabitsFragmentReadsNoSettings() async throws {
        try await expectDeclarationHolds(
            "/fragments/habits/Yoga", base: Settings(),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user0"]), read: nil
        ) { app, view, _ in ItemPageHandler<HabitDetailPage>(web: app.web).fragmentKey("Yoga", .hour, view) }
    }

    @Test func aPersonsFragmentReadsNoSettings() async throws {
        try await expectDeclarationHolds(
            "/fragments/people/user0", base: Settings(),
            unread: Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user0"]), read: nil
        ) { app, view, _ in ItemPageHandler<PersonDetailPage>(web: app.web).fragmentKey("user0", .hour, view) }
    }

    /// The fragment inside an item's page is the shared one: the page of a browser that favourites the habit embeds
    /// the very fragment (its ETag) that a browser with no settings gets from the fragment's own route.
    @Test func anItemPageEmbedsTheFragmentEveryBrowserShares() async throws {
        let scripted = try ScriptedApp(name: "declaration", clock: ManualClock(date: Self.date))
        let fragment = try await scripted.get("/fragments/habits/Yoga", [])
        let tag = try #require(fragment.headers["ETag"])
        let page = try await render("/habits/Yoga", Settings(favoriteHabits: ["Yoga"])) { _, _, _ in
            RenderKey(route: "", content: 0, personal: .none, stale: nil)
        }
        let escaped = tag.replacingOccurrences(of: "\"", with: "&quot;")
        #expect(String(decoding: page.bytes, as: UTF8.self).contains("data-live-etag=\"\(escaped)\""))
    }
}
