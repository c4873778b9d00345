import Foundation
import HTTPCore
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb
@testable import HTTPServer

/// Issue 23 point 3: a request that needs the upstream waits on it for a bounded time only (`upstreamWait`, 3 s by
/// default, with no data; 3 s for the refresh after a log), on the suite's manual clock, against a scripted upstream
/// that hangs; then it gets what can be served without it, or a quick 503 with `Retry-After`.
@Suite struct UpstreamWaitTests {
    /// A page asked for before any data, while the first refresh hangs: answered once the clock passes 3 s (the
    /// deadline is fixed when the page asks, so it is `theStoreAnswers…` below that pins it at 3 s; before the bound
    /// this waited for the refresh, which here never ends).
    static func waitOut(_ scripted: ScriptedApp, _ target: String) async throws -> Response {
        let (app, data, clock) = (scripted.app, scripted.data, scripted.clock)
        data.hang()
        let page = Task { try await ScriptedApp.get(app, target) }
        await eventually("the refresh held upstream") { data.heldCalls >= 1 }
        await eventually("the page waits on the clock") { clock.sleeperCount >= 1 }
        scripted.clock.advance(by: .seconds(3))
        let response = try await page.value
        scripted.data.release()
        return response
    }

    @Test func withNoDataAPageWaitsOnAHangingUpstreamThreeSecondsThenGets503WithRetryAfter() async throws {
        let scripted = try ScriptedApp(name: "upstream-wait")
        let response = try await Self.waitOut(scripted, "/habits")
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["Retry-After"] == "5")
        #expect(String(decoding: response.body, as: UTF8.self).contains("slow to answer"))
    }

    /// Home can be shown without data (its empty form), so that is what it gets at the bound, not a 503.
    @Test func withNoDataHomeGetsItsEmptyPageAtTheBound() async throws {
        let scripted = try ScriptedApp(name: "upstream-wait-home")
        let response = try await Self.waitOut(scripted, "/")
        #expect(response.status == .ok)
    }

    /// Issue 23 point 1: a page waiting on the first refresh says it waits on the upstream, so at the connection cap
    /// the server may give it up for a newcomer (`Eviction`'s last choice, before a handler at work, which is never
    /// chosen); given up (its task cancelled, as the server does), it ends at once with the quick 503.
    @Test func aPageWaitingOnTheFirstRefreshIsMarkedWaitingOnTheUpstreamAndCanBeGivenUp() async throws {
        let scripted = try ScriptedApp(name: "upstream-wait-mark")
        let (app, data) = (scripted.app, scripted.data)
        data.hang()
        let activity = RequestActivity()
        let page = Task { try await ScriptedApp.get(app, "/habits", activity: activity) }
        await eventually("the refresh held upstream") { data.heldCalls >= 1 }
        await eventually("the page marked as waiting on the upstream") { activity.isWaitingOnUpstream }
        let now = MonotonicInstant.now
        #expect(Eviction.cheapest([.handling, activity.standing], now: now) == 1)

        page.cancel()
        let response = try await page.value
        #expect(response.status == .serviceUnavailable)
        #expect(!activity.isWaitingOnUpstream)
        #expect(Eviction.cheapest([.handling, activity.standing], now: now) == nil)
        data.release()
    }

    @Test func theStoreAnswersAWaitThatRanOutWithTheFirstRefreshStillOutWithUpstreamSlow() {
        var state = SnapshotState()
        let now = ContinuousClock.now
        let (answer, _) = state.viewRequested(live: false, now: now, date: Date())
        guard case .wait(_, let deadline) = answer else {
            Issue.record("no data and a refresh started: the request waits, got \(answer)")
            return
        }
        #expect(deadline == now + .seconds(3))
        #expect(throws: UpstreamSlow.self) {
            try state.waitEnded(timedOut: true, now: now + .seconds(3), date: Date()).get()
        }
    }

    /// `POST /log`: the log is made, and the wait for the refresh after it ends at the bound (3 s): the redirect goes out.
    @Test func aLogWaitsForAHangingRefreshThreeSecondsThenRedirects() async throws {
        let scripted = try ScriptedApp(name: "upstream-wait-log")
        _ = try await scripted.snapshots.view()
        let (app, data, clock) = (scripted.app, scripted.data, scripted.clock)
        data.hang()
        let log = Task { try await ScriptedApp.post(app, "/log", "habit=Yoga") }
        await eventually("the refresh after the log held upstream") { data.heldCalls >= 1 }
        await eventually("the log waits on the clock") { clock.sleeperCount >= 1 }
        scripted.clock.advance(by: .seconds(3))
        let response = try await log.value
        #expect(response.status == .seeOther)
        #expect(scripted.data.logCalls == 1)
        scripted.data.release()
    }
}
