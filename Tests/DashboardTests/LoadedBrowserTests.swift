import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// `BrowserSettings.browser(of:)` and `browserAtOnce(of:)` hand a page the id its cookie verified to with the
/// settings, so the page's last-visit cookie needs no second check (issue 21): only a valid cookie has an id.
@Suite struct LoadedBrowserTests {
    func request(cookie value: String) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders([("Cookie", BrowserID.cookieName + "=" + value)]))
    }

    @Test func aValidCookieNamesItsBrowserWithItsSettingsAndAForgedOneNamesNobody() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loaded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = BrowserSettings(
            store: try SettingsStore(directory: directory, maxFiles: 3, defaultValue: Settings(), logger: .silent))
        let id = BrowserID.random()
        try await settings.store.update(id) { $0.favoriteHabits = ["Yoga"] }
        let good = settings.signers.current!.cookieValue(for: id)
        let forged = String(good.dropLast()) + (good.hasSuffix("A") ? "B" : "A")

        let loaded = try await settings.browser(of: request(cookie: good))
        #expect(loaded.id == id)
        #expect(loaded.settings.value.favoriteHabits == ["Yoga"])
        let atOnce = try #require(settings.browserAtOnce(of: request(cookie: good)))
        #expect(atOnce.id == id)
        #expect(atOnce.settings == loaded.settings)

        for request in [request(cookie: forged), Request(method: .get, target: "/")] {
            let nobody = try await settings.browser(of: request)
            #expect(nobody.id == nil)
            #expect(nobody.settings == settings.store.defaults)
            #expect(settings.browserAtOnce(of: request)?.id == nil)
        }
    }
}
