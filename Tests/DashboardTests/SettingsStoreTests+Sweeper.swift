import Foundation
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The hourly sweep (`SettingsSweeper`) on a manual clock of its own, while the store's clock ages the files: a file
/// past the maximum age stays until the sweeper's hour comes, goes at it, and nothing is swept after `cancel`.
extension SettingsStoreTests {
    /// `files()` for a closure that may not capture the suite.
    static func entries(of directory: URL) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.filter { !$0.hasPrefix(".") }
    }

    /// A store on `files`' clock with one browser's settings aged past the maximum (400 days); returns its file name.
    func expiredFile(in store: SettingsStore<Prefs>, clock: ManualClock) async throws -> String {
        let id = BrowserID.random()
        try await store.update(id) { $0.favoriteHabits = ["A"] }
        clock.advance(days: 401)
        return "\(id).json"
    }

    @Test func theSweeperSweepsEveryIntervalOfItsClockAndNotBefore() async throws {
        let (files, timer) = (ManualClock(), ManualClock())
        let store = try makeStore(clock: files)
        let directory = directory
        let sweeper = SettingsSweeper(store: store, interval: .seconds(3600), clock: timer, logger: .silent)
        defer { sweeper.cancel() }
        // Each hour: an expired file stays until the hour is up, then goes.
        for hour in 1...2 {
            await eventually("the sweeper waiting for hour \(hour)") { timer.sleeperCount == 1 }
            let expired = try await expiredFile(in: store, clock: files)
            timer.advance(by: .seconds(3599))
            // Not due: the clock leaves it asleep (a woken sweeper leaves the count at 0 until it sleeps again).
            #expect(timer.sleeperCount == 1)
            #expect(try self.files() == [expired])
            timer.advance(by: .seconds(1))
            await eventually("the sweep of hour \(hour)") { Self.entries(of: directory) == [] }
        }
    }

    @Test func aCancelledSweeperSweepsNoMore() async throws {
        let (files, timer) = (ManualClock(), ManualClock())
        let store = try makeStore(clock: files)
        let sweeper = SettingsSweeper(store: store, interval: .seconds(3600), clock: timer, logger: .silent)
        await eventually("the sweeper waiting for its hour") { timer.sleeperCount == 1 }
        let expired = try await expiredFile(in: store, clock: files)
        sweeper.cancel()
        // Cancelling wakes its sleep, and a cancelled sweeper returns without sweeping.
        await eventually("the cancelled sweeper stopped waiting") { timer.sleeperCount == 0 }
        timer.advance(by: .seconds(7200))
        for _ in 0..<1000 { await Task.yield() }
        #expect(try self.files() == [expired])
    }
}
