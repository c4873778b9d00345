import Foundation
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The epoch under which the server gives a page's answer again (issue 21): it must move with everything a page
/// shows, or a page would outlive its data.
@Suite struct AnswerEpochTests: ScriptedSuite {
    let scripted: ScriptedApp

    init() throws { scripted = try ScriptedApp(name: "answer-epoch") }

    @Test func theEpochStaysWithinAQuarterSecondAndMovesWithTheClock() async throws {
        _ = try await scripted.get("/")
        let epoch = app.answerEpoch
        // Onto the start of a quarter (within 10 ms): the epoch moves within a quarter second of clock time.
        let start = epoch.current()
        var steps = 0
        while epoch.current() == start && steps < 30 {
            clock.advance(by: .milliseconds(10))
            steps += 1
        }
        #expect(steps < 30)
        let quarter = epoch.current()
        clock.advance(by: .milliseconds(200))
        #expect(epoch.current() == quarter)
        clock.advance(by: .milliseconds(60))
        #expect(epoch.current() != quarter)
    }

    @Test func aChangedSettingMovesTheEpoch() async throws {
        _ = try await scripted.get("/")
        let before = app.answerEpoch.current()
        let favorite = try await scripted.post("/habits/Yoga/favorite", "favorite=true&return=/")
        #expect(favorite.status == .seeOther)
        #expect(app.answerEpoch.current() != before)
    }

    @Test func aCopyOfSettingsWrittenThroughAnotherDashboardMovesTheEpochWhenItIsTaken() async throws {
        _ = try await scripted.get("/")
        let other = try SettingsStore(directory: scripted.directory, defaultValue: Settings(), logger: .silent)
        let id = BrowserID.random()
        try await other.update(id) { $0.toggleFavorite("Yoga") }
        let before = app.answerEpoch.current()
        #expect(try await app.settings.store.loadVersioned(id).value.favoriteHabits == ["Yoga"])
        #expect(app.answerEpoch.current() != before, "the generation did not move; the copy did")
    }

    @Test func newDataMovesTheEpoch() async throws {
        _ = try await scripted.get("/")
        let before = app.answerEpoch.current()
        data.logYoga()
        await snapshots.refreshAfterChange()
        #expect(app.answerEpoch.current() != before)
    }

    @Test func theGenerationAndTheQuarterSecondAreEachSeenInTheEpoch() {
        let date = Date(timeIntervalSince1970: 1_800_000_000.5)
        let epoch = AnswerEpoch.dashboard(changes: 3, date: date)
        #expect(AnswerEpoch.dashboard(changes: 4, date: date) != epoch)
        #expect(AnswerEpoch.dashboard(changes: 3, date: date.addingTimeInterval(0.25)) != epoch)
        #expect(AnswerEpoch.dashboard(changes: 3, date: date.addingTimeInterval(0.2)) == epoch)
    }

    @Test func aPageIsReusableAndAnErrorPageOrAFormsAnswerIsNot() async throws {
        #expect(try await scripted.get("/habits").isReusable)
        #expect(try await scripted.get("/habits/Yoga").isReusable)
        #expect(try await !scripted.get("/habits/Nonexistent").isReusable)
        #expect(try await !scripted.get("/fragments/habits/Yoga").isReusable)
        #expect(try await !scripted.post("/habits/Yoga/favorite", "favorite=true&return=/").isReusable)
    }
}
