import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Logging a habit through the form, against a scripted upstream: one log upstream, one refresh (issue 18: it was
/// two invalidations, the shared cache's and the snapshot's), and the next page shows the new count.
@Suite struct LogHabitRefreshTests {
    @Test func loggingAHabitThroughTheFormRefreshesTheSnapshotOnce() async throws {
        let scripted = try ScriptedApp(name: "log-once")
        let before = try await scripted.snapshots.view()
        let refreshes = scripted.snapshots.metrics.refreshes
        let statisticsCalls = scripted.data.statisticsCalls
        let response = try await scripted.post("/log", "habit=Yoga")
        #expect(response.status == .seeOther)
        #expect(scripted.data.logCalls == 1)
        #expect(scripted.snapshots.metrics.refreshes == refreshes + 1, "one refresh for one log")
        #expect(scripted.data.statisticsCalls == statisticsCalls + 1, "one statistics call for one log")
        let after = try await scripted.snapshots.view()
        #expect(after.snapshot.version != before.snapshot.version, "the next page shows the new count")
    }
}
