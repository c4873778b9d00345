import HabitsAPI
import Testing

@testable import Dashboard

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
