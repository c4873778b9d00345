import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The sparklines as the pages render them (issue 10 point 4): the history is recorded by the store's refreshes on
/// its clock, and the habit page, the person page and Home's leaderboard cards draw it with its label.
@Suite final class TrendRenderingTests: ScriptedSuite {
    let scripted: ScriptedApp

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

    /// "02:10": how the charts word the start of a span recorded since `second`, with the latest slot at `now`.
    static func since(_ second: Int, now: Int) -> String {
        TimeText.clock(second, sameDayAs: now / 10 * 10, in: .current)
    }

    @Test func requestsAloneRecordNothingNew() async throws {
        _ = try await get("/habits/Yoga")
        _ = try await get("/people/user0")
        _ = try await get("/fragments/habits/Yoga")
        #expect(snapshots.history.habitTrend("Yoga")?.samples.count == 1)
    }

    /// Less than the hour recorded: the line spans what was (the first slot from its first total to its last, then
    /// the second), and the axis, the change and the label all say since when (issue 47 point 2).
    @Test func theHabitPageDrawsTheRecordedSpanAndSaysSinceWhenInItsAxisChangeAndLabel() async throws {
        let before = try await recordTwoSlots()
        let html = try await get("/habits/Yoga")
        let now = Int(clock.date.timeIntervalSince1970)
        let start = (now - 10) / 10 * 10
        let since = Self.since(start, now: now)
        #expect(
            html.contains(
                #"<svg class="chart-svg" viewBox="0 0 600 120" preserveAspectRatio="none" role="img" "#
                    + #"aria-label="Count since \#(since): from \#(before) to \#(before + 3)"><path class="chart-line" d="M0 114L300 114L600 6" vector-effect="non-scaling-stroke"></path></svg>"#
            ), "\(html)")
        #expect(
            html.contains(
                #"<span class="chart-start">since <time datetime="\#(TimeText.iso(start))">\#(since)</time></span>"#
                    + #" <span class="chart-extremes">low \#(before) · high \#(before + 3)</span> "#
                    + #"<span class="chart-end"><time datetime="\#(TimeText.iso(now))" data-time="ago">just now</time></span>"#
            ), "\(html)")
        #expect(html.contains(#"<p class="chart-change">+3 since \#(since)</p>"#))
        #expect(!html.contains("style="))
    }

    @Test func theRangeLinksWorkWithoutJavaScriptAndMarkTheCurrentOne() async throws {
        _ = try await recordTwoSlots()
        // An hour later, two more: the week's hourly samples are the end of each hour.
        data.logYoga(2)
        clock.advance(by: .seconds(3_600))
        await snapshots.refreshAfterChange()
        let html = try await get("/habits/Yoga?range=week")
        #expect(
            html.contains(
                #"<li><a href="/habits/Yoga">1 hour</a></li><li><a href="/habits/Yoga?range=day">1 day</a></li>"#
                    + #"<li><a href="/habits/Yoga?range=week" aria-current="true">1 week</a></li>"#))
        // The live region polls the same range, and the pause link keeps it.
        #expect(html.contains(#"data-live-src="/fragments/habits/Yoga?range=week""#))
        #expect(html.contains(#"href="/habits/Yoga?range=week&amp;live=0""#))
        // The week's first hourly slot keeps the total it started from: the week gained all five, since that hour.
        #expect(html.contains(#"aria-label="Count since "#))
        let fragment = try await get("/fragments/habits/Yoga?range=week")
        #expect(fragment.contains(#"<p class="chart-change">+5 since "#), "\(fragment)")
    }

    @Test func anUnknownRangeIsA400ThatNamesTheChoices() async throws {
        for target in ["/habits/Yoga?range=year", "/people/user0?range=HOUR"] {
            let response = try await scripted.get(target)
            #expect(response.status == .badRequest, "\(target)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("hour, day, week or month"))
        }
        // A fragment answers live.js with the status alone.
        #expect(try await scripted.get("/fragments/habits/Yoga?range=1").status == .badRequest)
        #expect(try await scripted.get("/habits/Yoga?range=").status == .badRequest)
    }

    @Test func aSingleSampleDrawsNoChartYet() async throws {
        _ = try await get("/habits/Yoga")
        #expect(snapshots.history.habitTrend("Yoga")?.samples.compactMap { $0 }.count == 1)
        let html = try await get("/habits/Yoga")
        #expect(!html.contains(#"<svg class="chart-svg""#))
        #expect(html.contains("Not enough counts recorded over 1 hour yet."))
    }

    @Test func thePersonPageDrawsTheirTotal() async throws {
        _ = try await recordTwoSlots()
        let html = try await get("/people/\(User.activeUserID)")
        #expect(html.contains(#"<svg class="chart-svg""#))
        #expect(html.contains(#"role="img" aria-label="Count since "#))
    }

    @Test func homesLeaderboardCardsDrawTheirHabit() async throws {
        let before = try await recordTwoSlots()
        let favorite = try await scripted.post("/habits/Yoga/favorite", "favorite=true&return=/")
        let cookie = try #require(favorite.headers["Set-Cookie"]).split(separator: ";")[0]
        let html = try await get("/", cookie: String(cookie))
        #expect(html.contains(#"class="card leader-card""#))
        // The line, its label and the text beside it cover the same span.
        let now = Int(clock.date.timeIntervalSince1970)
        let since = Self.since((now - 10) / 10 * 10, now: now)
        #expect(html.contains(#"aria-label="Count since \#(since): from \#(before) to \#(before + 3)""#))
        #expect(html.contains(#"<span class="trend">+3 since \#(since)</span>"#))
    }

    /// Time passing is a change too: the line and its figures move on with the slot even while the counts stand still.
    @Test func aLiveFragmentMovesOnWithTheSlotWhileTheCountsStandStill() async throws {
        _ = try await get("/fragments/habits/Yoga")
        clock.advance(by: .seconds(10))
        await snapshots.refreshAfterChange()
        let html = try await get("/fragments/habits/Yoga")
        #expect(html.contains("+0 since "), "\(html)")
        clock.advance(by: .seconds(3))
        let again = try await get("/fragments/habits/Yoga")
        #expect(again == html)
    }
}
