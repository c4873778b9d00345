import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The notices every page shows (`News`) and the rank changes of "since your last visit" (`SinceLastVisit`): pure
/// functions of the moment log, so driven with hand-made changes and seconds.
@Suite struct NewsTests {
    /// Someone passed the active user in Yoga at `second`.
    static func passed(_ userID: String, at second: Int, habit: String = "Yoga") -> RankChange {
        RankChange(
            kind: .passedYou, habit: habit, userID: userID, userName: userID.uppercased(), yourRank: 2,
            second: second)
    }

    /// A browser following `followed` with `favorites`.
    static func settings(following followed: [String], favorites: [String] = []) -> Settings {
        var settings = Settings()
        for id in followed { settings.toggleFollow(id) }
        for habit in favorites { settings.toggleFavorite(habit) }
        return settings
    }

    /// One field of the summary's template value.
    static func field(_ name: String, of summary: SinceLastVisit) -> TemplateValue? {
        guard case .object(let object) = summary.templateValue else { return nil }
        return object[name]
    }

    @Test func theNewsIsTheThreeNewestChangesThatConcernTheBrowserWithinTheWindow() {
        let moments = MomentLog(changes: [
            Self.passed("u1", at: 1_000),  // older than the quarter hour before now
            Self.passed("u2", at: 2_000),
            Self.passed("u3", at: 2_100),
            Self.passed("stranger", at: 2_150),  // not followed
            Self.passed("u4", at: 2_200),
            RankChange(kind: .newLeader, habit: "Run", userID: "u9", userName: "U9", yourRank: nil, second: 2_250),
            RankChange(kind: .newLeader, habit: "Swim", userID: "u9", userName: "U9", yourRank: nil, second: 2_260),
        ])
        let settings = Self.settings(following: ["u1", "u2", "u3", "u4"], favorites: ["Run"])
        let news = News(moments: moments, settings: settings, leaders: { _ in ["u9"] }, now: 2_300)
        // Newest first; the lead change of a favourite counts, the one of another habit and the stranger do not.
        #expect(
            news.items.map(\.sentence) == ["U9 took the lead in Run", "U4 passed you in Yoga", "U3 passed you in Yoga"])
        let wider = News(moments: moments, settings: settings, leaders: { _ in ["u9"] }, now: 2_300, limit: 10)
        #expect(
            wider.items.map(\.sentence) == [
                "U9 took the lead in Run", "U4 passed you in Yoga", "U3 passed you in Yoga", "U2 passed you in Yoga",
            ])
    }

    @Test func sinceLastVisitShowsTheThreeNewestRankChangesAndCountsTheRest() {
        var changes = (1...5).map { Self.passed("u\($0)", at: 1_000 + $0 * 10) }
        // The same person passing you again in the same habit is said once (the newest), and counted once.
        changes.append(Self.passed("u1", at: 1_060))
        changes.append(Self.passed("stranger", at: 1_070))
        let settings = Self.settings(following: (1...5).map { "u\($0)" })
        func summary(limit: Int) -> SinceLastVisit {
            SinceLastVisit(
                snapshot: Snapshot(inputs: SnapshotInputs()), settings: settings, lastVisit: 1_000, now: 3_000,
                pastTotal: { _, _, _ in nil }, moments: MomentLog(changes: changes), limit: limit)
        }
        let three = summary(limit: 3)
        #expect(
            three.rankChanges.map(\.sentence) == [
                "U1 passed you in Yoga", "U5 passed you in Yoga", "U4 passed you in Yoga",
            ])
        #expect(three.moreRankChanges == 2)
        #expect(Self.field("more", of: three) == .text("and 2 more rank changes"))
        let all = summary(limit: 5)
        #expect(all.moreRankChanges == 0)
        #expect(Self.field("more", of: all) == .null)
    }
}
