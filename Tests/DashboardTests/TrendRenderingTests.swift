import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import Testing

@testable import Dashboard

/// The sparklines as the pages render them (issue 10 point 4): the history is recorded by the store's refreshes on
/// its clock, and the habit page, the person page and Home's leaderboard cards draw it with its label.
@Suite final class TrendRenderingTests {
    let scripted: ScriptedApp
    var clock: ManualClock { scripted.clock }
    var data: ScriptedData { scripted.data }
    var snapshots: SnapshotStore { scripted.snapshots }
    var app: DashboardApp { scripted.app }

    init() throws { scripted = try ScriptedApp(name: "trends") }

    func get(_ target: String, cookie: String? = nil) async throws -> String {
        let response = try await scripted.get(target, cookie.map { [("Cookie", $0)] } ?? [])
        #expect(response.status == .ok)
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Two refreshes 10 s apart with 3 Yoga logged between them; returns Yoga's total before.
    func recordTwoSlots() async throws -> Int {
        _ = try await get("/habits/Yoga")
        let before = try #require(snapshots.history.habitTrend("Yoga")?.samples.last ?? nil)
        data.logYoga(3)
        clock.advance(by: .seconds(10))
        await snapshots.refreshAfterChange()
        return before
    }

    @Test func requestsAloneRecordNothingNew() async throws {
        _ = try await get("/habits/Yoga")
        _ = try await get("/people/user0")
        _ = try await get("/fragments/habits/Yoga")
        #expect(snapshots.history.habitTrend("Yoga")?.samples.count == 1)
    }

    @Test func theHabitPageDrawsItsTotalWithALabelAndTheGain() async throws {
        let before = try await recordTwoSlots()
        let html = try await get("/habits/Yoga")
        #expect(
            html.contains(
                #"<svg class="sparkline" viewBox="0 0 120 24" width="120" height="24" role="img" "#
                    + #"aria-label="Count over the last 1 min: from \#(before) to \#(before + 3)"><path class="sparkline-line" d="M116 21L120 3"></path><circle class="sparkline-end" cx="120" cy="3" r="2"></circle></svg><span class="trend">+3 in the last 1 min</span>"#
            ), "\(html)")
        #expect(!html.contains("style="))
    }

    @Test func aSingleSampleDrawsNoSparklineYet() async throws {
        _ = try await get("/habits/Yoga")
        #expect(snapshots.history.habitTrend("Yoga")?.samples.compactMap { $0 }.count == 1)
        let html = try await get("/habits/Yoga")
        #expect(!html.contains(#"<svg class="sparkline""#))
    }

    @Test func thePersonPageDrawsTheirTotal() async throws {
        _ = try await recordTwoSlots()
        let html = try await get("/people/\(User.activeUserID)")
        #expect(html.contains(#"<svg class="sparkline""#))
        #expect(html.contains(#"role="img" aria-label="Count over the last 1 min: from "#))
    }

    @Test func homesLeaderboardCardsDrawTheirHabit() async throws {
        let before = try await recordTwoSlots()
        let favorite = try await app.responder.respond(
            to: Request(
                method: .post, target: "/habits/Yoga/favorite",
                headers: HTTPHeaders([
                    ("Host", "127.0.0.1:8000"), ("Origin", "http://127.0.0.1:8000"),
                    ("Content-Type", "application/x-www-form-urlencoded"),
                ]), body: Array("return=/".utf8)),
            context: RequestContext(requestID: "t", logger: .silent))
        let cookie = try #require(favorite.headers["Set-Cookie"]).split(separator: ";")[0]
        let html = try await get("/", cookie: String(cookie))
        #expect(html.contains(#"class="card leader-card""#))
        #expect(html.contains(#"aria-label="Count over the last 1 min: from \#(before) to \#(before + 3)""#))
        #expect(html.contains("+3 in the last 1 min"))
    }

    /// Time passing is a change too: "+3 in the last 1 min" must not stay on screen through a quiet quarter hour.
    @Test func aLiveFragmentMovesOnWithTheSlotWhileTheCountsStandStill() async throws {
        _ = try await get("/fragments/habits/Yoga")
        clock.advance(by: .seconds(10))
        await snapshots.refreshAfterChange()
        let html = try await get("/fragments/habits/Yoga")
        #expect(html.contains("+0 in the last 1 min"), "\(html)")
        clock.advance(by: .seconds(3))
        let again = try await get("/fragments/habits/Yoga")
        #expect(again == html)
    }
}
