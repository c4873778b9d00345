import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The app over the real request coalescer: when the upstream fails, pages show the last good data with a notice.
@Suite final class StaleDataTests {
    let api = FakeHabitsAPI()
    let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
    let app: DashboardApp
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")

    init() throws {
        let clock = clock
        let data = RequestCoalescer(upstream: api)
        let store = try SettingsStore(directory: directory, defaultValue: Settings(), logger: .silent)
        app = DashboardApp(
            upstream: data,
            renderer: try Fixture.renderer(),
            settings: BrowserSettings(store: store),
            snapshots: SnapshotStore(source: data, clock: clock, logger: .silent))
    }

    /// Removes this test's settings directory.
    deinit {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // Nothing to remove, or already gone: either way nothing is left to clean.
        }
    }

    func get(_ target: String) async throws -> Response {
        try await app.responder.respond(
            to: Request(method: .get, target: target, headers: ["Host": "127.0.0.1:8000"]),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
    }

    @Test(arguments: ["/", "/habits", "/habits/Yoga", "/people", "/people/user0", "/log", "/fragments/home"])
    func upstreamDownAfterGoodDataShowsTheLastGoodDataWithItsTime(target: String) async throws {
        let fresh = try await get(target)
        #expect(fresh.status == .ok)
        #expect(!String(decoding: fresh.body, as: UTF8.self).contains("data as of"))

        api.fail(with: .transport("connection refused"))
        clock.advance(by: .seconds(60))
        let stale = try await get(target)
        #expect(stale.status == .ok)
        let html = String(decoding: stale.body, as: UTF8.self)
        let asOf = StaleNotice(dataFetchedAt: Date(timeIntervalSince1970: 1_800_000_000), now: clock.date).asOf
        #expect(
            html.contains(
                #"Showing data as of <time datetime="2027-01-15T08:00:00Z" data-time="clock">\#(asOf)</time>."#))
        #expect(html.components(separatedBy: "data as of").count == 2, "one notice per page")
    }
}
