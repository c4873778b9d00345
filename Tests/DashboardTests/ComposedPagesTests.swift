import Compression
import Foundation
import HTTPCore
import HTTPServer
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Habits and People are composed per browser from shared chunks (issue 46 point 1): the composed bytes are the
/// bytes of the page rendered whole for the same settings, gzip inflates to them, and what the render cache keeps
/// does not grow with the number of browsers.
@Suite struct ComposedPagesTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    func browser(_ scripted: ScriptedApp, _ settings: Settings) async throws -> [(String, String)] {
        try await scripted.browser(settings)
    }

    static let variety: [Settings] = [
        Settings(),
        Settings(favoriteHabits: ["Yoga"]),
        Settings(favoriteHabits: [Fixture.hostileName, "Yoga", "Push-ups/Sit-ups"], followedUserIDs: ["user3"]),
        Settings(followedUserIDs: ["user0", "user3", "user9"]),
    ]

    /// `/habits` as rendered whole for `settings` (the template with every section in it).
    func wholeHabits(_ app: DashboardApp, _ view: SnapshotView, _ settings: Settings) throws -> [UInt8] {
        let page = HabitsListPage(snapshot: view.snapshot, settings: settings, page: 1)
        return try app.renderer.pageBytes(
            .habits, page.templateFields(listPath: "/habits", renderer: app.renderer),
            frame: PageFrame(
                title: "Habits", tab: .habits, staleNotice: view.stale, colorsVersion: view.snapshot.referenceVersion))
    }

    /// `/people` as rendered whole for `settings`.
    func wholePeople(_ app: DashboardApp, _ view: SnapshotView, _ settings: Settings) throws -> [UInt8] {
        let page = PeoplePage(snapshot: view.snapshot, settings: settings)
        return try app.renderer.pageBytes(
            .people, page.templateFields(listPath: "/people", renderer: app.renderer),
            frame: PageFrame(
                title: "People", tab: .people, staleNotice: view.stale, colorsVersion: view.snapshot.referenceVersion))
    }

    @Test(arguments: ["/habits", "/people"])
    func aComposedPageIsThePageRenderedWholeForTheSameSettings(target: String) async throws {
        let scripted = try ScriptedApp(name: "composed", clock: ManualClock(date: Self.date))
        var tags: [[UInt8]: String] = [:]
        for settings in Self.variety {
            let headers = try await browser(scripted, settings)
            let response = try await scripted.get(target, headers)
            #expect(response.status == .ok)
            let view = try await scripted.snapshots.view()
            let whole =
                target == "/habits"
                ? try wholeHabits(scripted.app, view, settings) : try wholePeople(scripted.app, view, settings)
            #expect(String(decoding: response.body, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
            let gzipped = try await scripted.get(target, headers + [("Accept-Encoding", "gzip")])
            #expect(gzipped.headers["Content-Encoding"] == "gzip")
            #expect(Gzip.decompress(gzipped.body) == whole, "the stitched gzip inflates to the page")
            let tag = try #require(response.headers["ETag"])
            #expect(gzipped.headers["ETag"] == EntityTag.gzipVariant(of: tag))
            #expect(tags[whole, default: tag] == tag, "equal pages, equal tags")
            tags[whole] = tag
            let again = try await scripted.get(target, headers + [("If-None-Match", tag)])
            #expect(again.status == .notModified)
        }
        #expect(Set(tags.values).count == tags.count, "different pages, different tags")
        #expect(tags.count == 3, "two of the four browsers see the same page")
    }

    @Test func whatTheRenderCacheKeepsDoesNotGrowWithTheBrowsers() async throws {
        let scripted = try ScriptedApp(name: "crowd", clock: ManualClock(date: Self.date))
        let habits = ["Yoga", "Push-ups/Sit-ups", Fixture.hostileName, "Café crème & co"]
        let users = ["user0", "user3", "user9"]
        var counts: [Int] = []
        for index in 0..<12 {
            let settings = Settings(
                favoriteHabits: [habits[index % habits.count]], followedUserIDs: [users[index % users.count]])
            let headers = try await browser(scripted, settings)
            for target in ["/habits", "/people"] {
                #expect(try await scripted.get(target, headers + [("Accept-Encoding", "gzip")]).status == .ok)
            }
            counts.append(scripted.app.renderCache.count)
        }
        #expect(Set(counts.dropFirst()).count == 1, "entries after each browser: \(counts)")
    }

    /// Home is composed around its composed fragment: the page holds the fragment's very bytes, its region names the
    /// fragment's ETag (so `live.js`'s first poll is a 304), and the stitched gzip inflates to the page.
    @Test func homeHoldsItsFragmentAndItsFragmentsTag() async throws {
        let scripted = try ScriptedApp(name: "composed-home", clock: ManualClock(date: Self.date))
        var fragments: Set<[UInt8]> = []
        for settings in Self.variety.dropFirst() {
            let headers = try await browser(scripted, settings)
            let page = try await scripted.get("/", headers)
            let fragment = try await scripted.get("/fragments/home", headers)
            #expect(page.status == .ok && fragment.status == .ok)
            let tag = try #require(fragment.headers["ETag"])
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("data-live-etag=\"\(HTMLEscaping.escape(tag))\""))
            #expect(html.contains(String(decoding: fragment.body, as: UTF8.self)))
            fragments.insert(fragment.body)
            let poll = try await scripted.get("/fragments/home", headers + [("If-None-Match", tag)])
            #expect(poll.status == .notModified)
            let gzipped = try await scripted.get("/", headers + [("Accept-Encoding", "gzip")])
            #expect(Gzip.decompress(gzipped.body) == page.body)
        }
        #expect(fragments.count == Self.variety.count - 1, "each browser's leaderboard and Following are its own")
    }

    /// Home's fragment keeps its Following rows by person and by the favourite their message names: each browser's
    /// fragment is the one rendered whole for its settings, whatever the browsers before it chose.
    @Test func homesFragmentIsTheFragmentRenderedWholeForTheSameSettings() async throws {
        let scripted = try ScriptedApp(name: "composed-home-whole", clock: ManualClock(date: Self.date))
        let view = try await scripted.snapshots.view()
        let snapshot = view.snapshot
        // Someone who has counted two habits the active user has too: browsers favouring one or the other are told
        // about a different habit of theirs.
        let candidates = snapshot.sortedUsers.compactMap { user -> (String, [String])? in
            let habits = (snapshot.userStatistics(of: user.id)?.habitCounts ?? [])
                .filter { $0.count > 0 && snapshot.activeUserHabits[$0.habit.name] != nil }.map(\.habit.name)
            return habits.count >= 2 && user.id != snapshot.activeUserID ? (user.id, habits) : nil
        }
        let (person, habits) = try #require(candidates.first)
        let variety = [
            Settings(followedUserIDs: [person]),
            Settings(favoriteHabits: [habits[0]], followedUserIDs: [person]),
            Settings(favoriteHabits: [habits[1]], followedUserIDs: [person, "user0"]),
            Settings(favoriteHabits: [habits[1], habits[0]], followedUserIDs: [person]),
        ]
        let (renderer, activity) = (scripted.app.renderer, scripted.app.web.activity)
        var fragments: Set<[UInt8]> = []
        for settings in variety {
            let fragment = try await scripted.get("/fragments/home", try await browser(scripted, settings))
            let now = activity.pageDate(now: scripted.app.state.date)
            let page = HomePage(
                snapshot: snapshot, settings: settings, baseline: activity.baseline(before: now), now: now,
                habitTrend: { activity.habitTrend($0) }, moments: activity.moments)
            let whole = try renderer.fragmentBytes(
                LivePage.home.fragmentTemplate, page.fragmentValue(stale: view.stale, renderer: renderer))
            #expect(String(decoding: fragment.body, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
            fragments.insert(fragment.body)
        }
        #expect(fragments.count == variety.count)
    }
}
