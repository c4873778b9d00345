import Foundation
import HabitsAPI
import TestSupport

@testable import DashboardCore
@testable import DashboardWeb

/// The app over a `FakeHabitsAPI` serving a fixed data set, on a manual clock, with a settings store in a fresh
/// directory (removed at the end): what the suites that answer routes from a data set share (`ScriptedApp` is the
/// same over a scripted upstream whose data changes).
final class FixtureApp {
    /// The fake upstream, serving the data set given.
    let api: FakeHabitsAPI
    /// The settings directory, removed when the fixture goes.
    let directory: URL
    /// The settings store in `directory` (three files at most, so a test can fill it).
    let store: SettingsStore<Settings>
    /// The app under test.
    let app: DashboardApp

    /// Builds the app over `data`; `name` prefixes the settings directory, so a left-over directory says which suite
    /// left it; `metrics` is what `/metrics` answers.
    init(
        name: String, data: FakeHabitsAPI.DataSet = Fixture.data,
        metrics: @escaping @Sendable ([CacheUse]) async -> String = { _ in "" }
    ) throws {
        api = FakeHabitsAPI(data: data)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        store = try SettingsStore(directory: directory, maxFiles: 3, defaultValue: Settings(), logger: .silent)
        app = DashboardApp(
            upstream: api, renderer: try Fixture.renderer(), settings: BrowserSettings(store: store),
            metrics: metrics, clock: ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // A test that never created the directory has nothing to remove; anything else is left in /tmp.
        }
    }
}
