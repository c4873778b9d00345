import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Taking, sharing and taking back a habit's lead (issue 47 point 1), from consecutive snapshots and the moment log,
/// and how a lead change reads once it is no longer true.
@Suite struct LeadChangesTests {
    /// Yoga with `counts` (by person id) as a snapshot of the test data.
    func yoga(_ counts: [String: Int]) -> Snapshot { RankChangesTests.snapshot(["Yoga": counts]) }

    /// Records each step's changes into a log as the activity history does, and returns each step's sentences.
    func script(_ steps: [[String: Int]], log: inout MomentLog) -> [[String]] {
        var said: [[String]] = []
        for index in steps.indices.dropFirst() {
            let current = log
            let changes = RankChanges.between(
                yoga(steps[index - 1]), yoga(steps[index]), second: index * 60,
                ledBefore: { current.hasLed($1, in: $0) })
            log.append(changes, now: index * 60)
            said.append(changes.map(\.sentence))
        }
        return said
    }

    @Test func tyingTheTopSharesTheLeadAndNamesWhomItCaughtUpWith() {
        var log = MomentLog()
        let said = script(
            [
                ["user1": 5, "user2": 4, "user3": 1], ["user1": 5, "user2": 5, "user3": 1],
                ["user1": 5, "user2": 5, "user3": 5],
            ],
            log: &log)
        #expect(said == [["Bob tied Amy for the lead in Yoga"], ["Cat tied Amy and Bob for the lead in Yoga"]])
    }

    @Test func leadTiePassAndPassBackAreTakingSharingTakingAndTakingBack() {
        var log = MomentLog()
        let said = script(
            [
                ["user1": 5, "user2": 5], ["user1": 6, "user2": 5], ["user1": 6, "user2": 6], ["user1": 6, "user2": 7],
                ["user1": 8, "user2": 7], ["user1": 9, "user2": 7],
            ], log: &log)
        #expect(
            said == [
                ["Amy took the lead in Yoga"], ["Bob tied Amy for the lead in Yoga"], ["Bob took the lead in Yoga"],
                ["Amy took back the lead in Yoga"], [],
            ])
    }

    @Test func aLeaderFromTheStartWhoWasPassedAndPassesBackTakesTheLeadBack() {
        var log = MomentLog()
        let said = script([["user1": 5, "user2": 4], ["user1": 5, "user2": 6], ["user1": 7, "user2": 6]], log: &log)
        #expect(said == [["Bob took the lead in Yoga"], ["Amy took back the lead in Yoga"]])
    }

    @Test func twoPassingTheLeaderIntoATieDidNotLeadBefore() {
        var log = MomentLog()
        let said = script(
            [
                ["user1": 5, "user2": 4, "user3": 4], ["user1": 5, "user2": 6, "user3": 6],
                ["user1": 5, "user2": 7, "user3": 6],
            ],
            log: &log)
        #expect(
            said == [
                ["Bob tied Cat for the lead in Yoga", "Cat tied Bob for the lead in Yoga"],
                ["Bob took the lead in Yoga"],
            ])
    }

    @Test func aLeaderPullingAheadOfWhoTiedThemTakesTheLeadBack() {
        var log = MomentLog()
        let said = script([["user1": 5, "user2": 4], ["user1": 5, "user2": 5], ["user1": 6, "user2": 5]], log: &log)
        #expect(said == [["Bob tied Amy for the lead in Yoga"], ["Amy took back the lead in Yoga"]])
    }

    @Test func whoOnlyTiedAndThenPullsAheadTakesTheLeadForTheFirstTime() {
        var log = MomentLog()
        let said = script([["user1": 5, "user2": 4], ["user1": 5, "user2": 5], ["user1": 5, "user2": 6]], log: &log)
        #expect(said == [["Bob tied Amy for the lead in Yoga"], ["Bob took the lead in Yoga"]])
    }

    @Test func youAreNamedAsYouInATie() {
        let you = RankChangesTests.you
        let changes = RankChanges.between(yoga([you: 5, "user1": 4]), yoga([you: 5, "user1": 5]), second: 1)
        #expect(changes.map(\.sentence) == ["Amy tied you for the lead in Yoga"])
        let yours = RankChanges.between(yoga([you: 4, "user1": 5]), yoga([you: 5, "user1": 5]), second: 1)
        #expect(yours.map(\.sentence) == ["You tied Amy for the lead in Yoga"])
    }

    /// Amy takes the lead (60), Bob ties her (120), Bob passes (180), Amy passes back (240).
    func passedBack() -> MomentLog {
        var log = MomentLog()
        _ = script(
            [
                ["user1": 5, "user2": 5], ["user1": 6, "user2": 5], ["user1": 6, "user2": 6], ["user1": 6, "user2": 7],
                ["user1": 8, "user2": 7],
            ], log: &log)
        return log
    }

    @Test func aLeadThatEndedReadsHadTheLeadUntilItsEnd() throws {
        let log = passedBack()
        let leaders: (String) -> [String] = { _ in ["user1"] }
        let lines = log.lines(log.changes.reversed(), leaders: leaders, now: 300)
        #expect(
            lines.map { $0.sentence + " · " + ($0.until == nil ? "" : "until ") + $0.time.relative } == [
                "Amy took back the lead in Yoga · 1 min ago", "Bob had the lead in Yoga · until 1 min ago",
            ])
        // Bob's tie and his lead both ended when Amy passed back: one line says so, not two; Amy's first lead ended
        // when Bob passed her, and her newer line says more.
        #expect(log.end(of: log.changes[1]) == 240)
        #expect(log.end(of: log.changes[0]) == 180, "Bob's tie left Amy at the top; his pass ended her lead")
    }

    @Test func aLeadChangeWhosePersonNoLongerLeadsWithNoKnownEndIsNotShown() throws {
        let log = passedBack()
        let latest = try #require(log.latestLeader(in: "Yoga", notBefore: 0))
        #expect(
            log.line(latest, leaders: { _ in ["user1"] }, now: 300, inHabit: false)?.sentence
                == "Amy took back the lead")
        #expect(log.line(latest, leaders: { _ in ["user2"] }, now: 300) == nil)
        let tie = log.changes[1]
        #expect(MomentLog(changes: [tie]).line(tie, leaders: { _ in ["user2"] }, now: 300) == nil, "a tie of one")
    }

    @Test func theSameNoticeIsShownOncePerHabitPersonAndKind() {
        var log = MomentLog()
        _ = script(
            [
                ["user1": 5, "user2": 4], ["user1": 5, "user2": 5], ["user1": 6, "user2": 5], ["user1": 6, "user2": 6],
            ],
            log: &log)
        let lines = log.lines(log.changes.reversed(), leaders: { _ in ["user1", "user2"] }, now: 300)
        #expect(lines.map(\.sentence) == ["Bob tied Amy for the lead in Yoga", "Amy took back the lead in Yoga"])
    }
}
