import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct LogHabitPageTests {
    @Test func offersFavouritesFirstThenTheRestByCategory() {
        let page = LogHabitPage(habits: TestData.habits, settings: Settings(favoriteHabits: ["Yoga", "Meditation"]))
        #expect(page.favorites.map(\.name) == ["Meditation", "Yoga"])
        #expect(page.categories.map(\.title) == ["Eating", "Exercise", "Mindfulness"])
        #expect(page.categories.map { $0.habits.map(\.name) } == [["Eat fruit"], ["Run", "Swim"], ["Deep breathing"]])
        #expect(page.confirmation == nil)
    }

    @Test func withoutFavouritesOffersEveryHabitByCategory() {
        let page = LogHabitPage(habits: TestData.habits, settings: .default, loggedHabitName: "Run")
        #expect(page.favorites.isEmpty)
        #expect(page.categories.flatMap(\.habits).count == TestData.allHabits.count)
        #expect(page.confirmation == "Logged Run.")
    }

    @Test func showsYourCountAndRankPerHabitAndInTheConfirmation() {
        let statistics = TestData.statistics(["Yoga": ["user1": 9, "activeUser": 5, "user2": 5], "Run": ["user1": 2]])
        let page = LogHabitPage(
            habits: TestData.habits, settings: .default, loggedHabitName: "Yoga", statistics: statistics)
        #expect(page.yours["Yoga"] == LogHabitPage.YourStanding(count: 5, rank: 2))
        #expect(page.yours["Run"] == nil)
        #expect(page.confirmation == "Logged Yoga: you have 5, 2nd.")
    }
}

@Suite struct LogHabitPassedTests {
    static func page(previous: Int?, counts: [String: Int]) -> LogHabitPage {
        let snapshot = Snapshot(
            inputs: SnapshotInputs(
                users: TestData.users, habits: TestData.habits, statistics: TestData.statistics(["Yoga": counts])))
        return LogHabitPage(snapshot: snapshot, settings: .default, loggedHabitName: "Yoga", previousCount: previous)
    }

    @Test func namesEveryoneTheLogTookYouPastInRankOrder() {
        let page = Self.page(previous: 3, counts: [User.activeUserID: 5, "user1": 3, "user2": 4, "user3": 9])
        #expect(page.passed == ["Bob", "Amy"])
        #expect(page.passedText == "You passed Bob and Amy — now 2nd in Yoga.")
    }

    @Test func aCountThatCannotBeTheOneBeforeIsIgnored() {
        #expect(Self.page(previous: 5, counts: [User.activeUserID: 5, "user1": 4]).passedText == nil)
        #expect(Self.page(previous: -1, counts: [User.activeUserID: 5, "user1": 4]).passedText == nil)
        #expect(Self.page(previous: nil, counts: [User.activeUserID: 5, "user1": 4]).passedText == nil)
        #expect(Self.page(previous: 4, counts: [User.activeUserID: 5, "user1": 5]).passedText == nil)
    }
}
