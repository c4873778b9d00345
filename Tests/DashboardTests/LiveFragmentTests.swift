import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Live fragments through the app's responder with a scripted upstream and a manual clock: ETags from the render
/// key, 304s, and long polls held until the data changes (issue 9 points 5 and 6).
@Suite final class LiveFragmentTests: ScriptedSuite {
    let scripted: ScriptedApp

    init() throws {
        // 512 places, 32 for each address: the fair-share tests' numbers.
        var parking = ParkingLimits()
        parking.capacity = 512
        scripted = try ScriptedApp(
            name: "live", clock: ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000)), parking: parking)
    }

    func get(_ target: String, _ headers: [(String, String)] = []) async throws -> Response {
        try await scripted.get(target, headers)
    }

    @Test(arguments: [
        "/fragments/home", "/fragments/habits/Yoga", "/fragments/people/user0", "/people", "/habits/Yoga",
    ])
    func anUnchangedPageIsA304ThatFitsIn300Bytes(target: String) async throws {
        let first = try await get(target)
        let tag = try #require(first.headers["ETag"])
        let again = try await get(target, [("If-None-Match", tag)])
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
        // What the server puts on the wire: status line, these fields, Date, the empty line (no Content-Length).
        var head = "HTTP/1.1 304 Not Modified\r\n"
        for field in again.headers { head += "\(field.name): \(field.value)\r\n" }
        head += "Date: Tue, 01 Dec 2026 09:21:20 GMT\r\n\r\n"
        #expect(head.utf8.count + "Preference-Applied: wait=25\r\n".utf8.count <= 300, "\(head)")
        #expect(again.headers["Content-Security-Policy"] == nil)
        #expect(again.headers["Cache-Control"] == "no-store")
    }

    @Test func theLivePageCarriesItsFragmentsETag() async throws {
        let fragment = try await get("/fragments/habits/Yoga")
        let tag = try #require(fragment.headers["ETag"])
        let page = String(decoding: try await get("/habits/Yoga").body, as: UTF8.self)
        #expect(page.contains("data-live-etag=\"\(tag.replacingOccurrences(of: "\"", with: "&quot;"))\""))
    }

    @Test func aPollWithoutPreferIsAnsweredAtOnce() async throws {
        let tag = try #require(try await get("/fragments/home").headers["ETag"])
        let response = try await get("/fragments/home", [("If-None-Match", tag)])
        #expect(response.status == .notModified)
        #expect(response.headers["Preference-Applied"] == nil)
        #expect(snapshots.metrics.parked == 0)
    }

    @Test func aWaitingPollIsHeldUntilTheDataChangesThenGetsTheNewFragment() async throws {
        let first = try await get("/fragments/habits/Yoga")
        let tag = try #require(first.headers["ETag"])
        let app = app
        let poll = Task {
            try await ScriptedApp.get(
                app, "/fragments/habits/Yoga", [("If-None-Match", tag), ("Prefer", "wait=25")])
        }
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        data.logYoga(4)
        clock.advance(by: .seconds(0.25))  // the ticker's next refresh sees the change
        let response = try await poll.value
        #expect(response.status == .ok)
        #expect(response.headers["ETag"] != tag)
        #expect(response.headers["Preference-Applied"] == "wait=25")
        #expect(String(decoding: response.body, as: UTF8.self).contains("7 times"))
    }

    @Test func aWaitingPollWithNoChangeGets304AfterTheWait() async throws {
        let tag = try #require(try await get("/fragments/people/user0").headers["ETag"])
        let app = app
        let poll = Task {
            try await ScriptedApp.get(
                app, "/fragments/people/user0", [("If-None-Match", tag), ("Prefer", "wait=5")])
        }
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        for _ in 0..<20 { clock.advance(by: .seconds(0.25)) }
        let response = try await poll.value
        #expect(response.status == .notModified)
        #expect(response.headers["Preference-Applied"] == "wait=5")
    }

    @Test func shutdownAnswersAWaitingPollAtOnce() async throws {
        let tag = try #require(try await get("/fragments/home").headers["ETag"])
        let app = app
        let poll = Task {
            try await ScriptedApp.get(app, "/fragments/home", [("If-None-Match", tag), ("Prefer", "wait=25")])
        }
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        snapshots.shutdown()
        #expect(try await poll.value.status == .notModified)
    }

    /// Issue 9: 500 viewers waiting on one live fragment cost the upstream at most 4 statistics calls a second, and
    /// every one of them gets the change.
    @Test func fiveHundredWaitersCostAtMostFourStatisticsCallsPerSecondAndAllGetTheChange() async throws {
        let tag = try #require(try await get("/fragments/habits/Yoga").headers["ETag"])
        let before = data.statisticsCalls
        let app = app
        // From 500 browsers' addresses: one address may hold only its share of the parked places.
        let polls = (0..<500).map { index in
            Task {
                try await ScriptedApp.get(
                    app, "/fragments/habits/Yoga", [("If-None-Match", tag), ("Prefer", "wait=25")],
                    peer: "10.0.\(index / 250).\(index % 250):5000")
            }
        }
        await eventually("500 parked") { [snapshots] in snapshots.metrics.parked == 500 }
        // Ten simulated seconds in 50 ms steps, the change in the middle.
        for step in 1...200 {
            if step == 100 { data.logYoga() }
            clock.advance(by: .seconds(0.05))
            await eventually("the refresh of step \(step) ended") { [snapshots] in snapshots.metrics.idle }
        }
        // Only the ticker refreshes while everyone is parked, so the change reaching them proves it ran.
        var changed = 0
        for poll in polls where try await poll.value.status == .ok { changed += 1 }
        #expect(changed == 500)
        let calls = data.statisticsCalls - before
        #expect(calls <= 41, "\(calls) statistics calls in 10 s")
    }
}

extension SnapshotStore.Metrics {
    /// Whether every refresh started has ended.
    var idle: Bool { refreshes == completed }
}
