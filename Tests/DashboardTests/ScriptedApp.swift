import Foundation
import HTTPCore
import HTTPServer
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The app over a scripted upstream, a manual clock and a settings store in a fresh directory (removed at the end):
/// what the suites that drive pages and fragments through the responder share.
final class ScriptedApp {
    let clock: ManualClock
    let data: ScriptedData
    let snapshots: SnapshotStore
    let app: DashboardApp
    let directory: URL

    /// Builds the app; `name` prefixes the settings directory, so a left-over directory says which suite left it. The
    /// clock starts now, rounded down to a 10 s history slot (slots are counted from 1970), so a test that moves it a
    /// few seconds knows whether it crosses into the next slot.
    init(
        name: String, clock: ManualClock = ManualClock(date: ScriptedApp.slotStart()),
        configuration: SnapshotStore.Configuration = SnapshotStore.Configuration(),
        parking: ParkingLimits = ParkingLimits()
    ) throws {
        self.clock = clock
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        data = ScriptedData()
        snapshots = SnapshotStore(source: data, configuration: configuration, clock: clock, logger: .silent)
        let store = try SettingsStore(directory: directory, defaultValue: Settings(), logger: .silent)
        app = DashboardApp(
            upstream: data,
            renderer: try Fixture.renderer(),
            settings: BrowserSettings(store: store), snapshots: snapshots, parking: parking)
    }

    /// Now, rounded down to a multiple of 10 s.
    static func slotStart(_ date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 10).rounded(.down) * 10)
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // Nothing was written: nothing to remove.
        }
    }

    /// A GET of `target` through the responder, with `headers` after `Host`.
    func get(_ target: String, _ headers: [(String, String)] = []) async throws -> Response {
        try await Self.get(app, target, headers)
    }

    /// A GET of `target` through `app`'s responder, for tasks that must not capture the fixture; from `peer` when
    /// given (what per-address limits count by).
    static func get(
        _ app: DashboardApp, _ target: String, _ headers: [(String, String)] = [], peer: String? = nil,
        activity: RequestActivity = RequestActivity()
    ) async throws -> Response {
        try await app.responder.respond(
            to: Request(method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1:8000")] + headers)),
            context: RequestContext(
                requestID: "t", logger: .silent, peer: peer.flatMap { IPAddress($0) }, activity: activity)
        ).response()
    }

    /// A form POST of `body` to `target` through the responder, from the dashboard's own origin, with `cookie` when
    /// given.
    func post(_ target: String, _ body: String, cookie: String? = nil) async throws -> Response {
        try await Self.post(app, target, body, cookie: cookie)
    }

    /// The `Cookie` field of a browser given `settings` through the forms (a favourite press per habit, a follow per
    /// person), each press answered 303; none for the defaults.
    func browser(_ settings: Settings, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [(
        String, String
    )] {
        var cookie: String?
        let forms =
            settings.favoriteHabits.map {
                ("/habits/\(PercentEncoding.encodePathSegment($0))/favorite", "favorite=true")
            }
            + settings.followedUserIDs.map { ("/people/\($0)/follow", "follow=true") }
        for (path, form) in forms {
            let response = try await post(path, form, cookie: cookie)
            #expect(response.status == .seeOther, "\(path)", sourceLocation: sourceLocation)
            if let set = response.headers.values(for: "Set-Cookie").first(where: { $0.hasPrefix("habits_browser=") }) {
                cookie = String(set.split(separator: ";")[0])
            }
        }
        return cookie.map { [("Cookie", $0)] } ?? []
    }

    /// A form POST through `app`'s responder, for tasks that must not capture the fixture.
    static func post(_ app: DashboardApp, _ target: String, _ body: String, cookie: String? = nil) async throws
        -> Response
    {
        var fields = [
            ("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8000"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ]
        if let cookie { fields.append(("Cookie", cookie)) }
        return try await app.responder.respond(
            to: Request(method: .post, target: target, headers: HTTPHeaders(fields), body: Array(body.utf8)),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
    }
}

/// A suite over a `ScriptedApp`: the fixture's clock, data, store and app under their own names.
protocol ScriptedSuite {
    /// The fixture the suite drives.
    var scripted: ScriptedApp { get }
}

extension ScriptedSuite {
    /// The fixture's manual clock.
    var clock: ManualClock { scripted.clock }
    /// The fixture's scripted upstream.
    var data: ScriptedData { scripted.data }
    /// The fixture's snapshot store.
    var snapshots: SnapshotStore { scripted.snapshots }
    /// The app under test.
    var app: DashboardApp { scripted.app }
}
