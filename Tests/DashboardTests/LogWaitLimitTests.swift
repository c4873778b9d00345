import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 23 point 3: `POST /log`s waiting on a hanging upstream are bounded (`WebContext.logWaitLimit`), so a loop
/// of logs cannot hold every connection; beyond the bound a log is answered at once with 503 and `Retry-After`,
/// having sent nothing upstream. On the suite's manual clock: the waits end only when the test moves it.
@Suite struct LogWaitLimitTests {
    @Test func beyondTheBoundALogIsA503WithRetryAfterAndNothingIsLogged() async throws {
        let scripted = try ScriptedApp(name: "log-wait-limit")
        let (app, data, clock, snapshots) = (scripted.app, scripted.data, scripted.clock, scripted.snapshots)
        _ = try await scripted.snapshots.view()
        data.hang()
        let limit = WebContext.logWaitLimit
        let held = (0..<limit).map { _ in Task { try await ScriptedApp.post(app, "/log", "habit=Yoga") } }
        await eventually("every log made and waiting for its refresh") {
            // The waits share the store's one deadline timer.
            data.logCalls == limit && app.web.logWaits.count == limit
                && snapshots.locked.withLock { $0.waiters.count } == limit && clock.sleeperCount >= 1
        }

        let refused = try await ScriptedApp.post(app, "/log", "habit=Yoga")
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] == "5")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("nothing was logged"))
        #expect(data.logCalls == limit, "the log turned away never reached the upstream")

        clock.advance(by: .seconds(3))
        for log in held { #expect(try await log.value.status == .seeOther) }
        data.release()
        #expect(app.web.logWaits.count == 0)
        let after = try await ScriptedApp.post(app, "/log", "habit=Yoga")
        #expect(after.status == .seeOther, "the places are free again once the waits end")
        #expect(data.logCalls == limit + 1)
    }
}
