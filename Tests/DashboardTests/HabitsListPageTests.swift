import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct HabitsListPageTests {
    @Test func withoutFavouritesListsCategoriesThatHaveHabitsByName() {
        let page = HabitsListPage(habits: TestData.habits, settings: .default)
        #expect(page.sections.map(\.title) == ["Eating", "Exercise", "Mindfulness"])
        #expect(
            page.sections.map { $0.habits.map(\.name) } == [
                ["Eat fruit"], ["Run", "Swim", "Yoga"], ["Deep breathing", "Meditation"],
            ])
        #expect(!page.sections.contains { $0.isFavorites })
    }

    @Test func favouritesComeFirstAndOnlyThere() {
        let settings = Settings(favoriteHabits: ["Yoga", "Eat fruit", "Vanished"])
        let page = HabitsListPage(habits: TestData.habits, settings: settings)
        #expect(page.sections.map(\.title) == ["Favorites", "Exercise", "Mindfulness"])
        #expect(page.sections[0].habits.map(\.name) == ["Eat fruit", "Yoga"])
        #expect(page.sections[0].habits.allSatisfy { $0.isFavorite })
        #expect(page.sections[0].color == .favorite)
        #expect(page.sections[1].habits.map(\.name) == ["Run", "Swim"])
        #expect(page.sections.dropFirst().allSatisfy { $0.habits.allSatisfy { !$0.isFavorite } })
    }

    @Test func rowsKnowTheirCategoryColour() throws {
        let page = HabitsListPage(habits: TestData.habits, settings: Settings(favoriteHabits: ["Meditation"]))
        let favorite = try #require(page.sections.first?.habits.first)
        #expect(favorite.categoryName == "Mindfulness")
        #expect(favorite.categoryColor == ColorStyle(background: "#cc66c2", text: "#000000"))
        #expect(favorite.path == "/habits/Meditation")
        #expect(page.sections[2].title == "Exercise")
        #expect(page.sections[2].color == ColorStyle(TestData.exercise.color))
    }

    @Test func emptyDataHasNoSections() {
        #expect(HabitsListPage(habits: [:], settings: Settings(favoriteHabits: ["Yoga"])).sections.isEmpty)
    }
}
