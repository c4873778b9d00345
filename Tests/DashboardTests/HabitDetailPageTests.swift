import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct HabitDetailPageTests {
    private func page(_ counts: [String: Int], favorites: [String] = []) throws -> HabitDetailPage {
        let statistics = TestData.statistics(["Yoga": counts]).habitStatistics
        return try #require(
            HabitDetailPage(
                habitName: "Yoga", habits: TestData.habits, statistics: statistics,
                settings: Settings(favoriteHabits: favorites)))
    }

    @Test func headerShowsTheHabit() throws {
        let page = try page([:], favorites: ["Yoga"])
        #expect(page.name == "Yoga")
        #expect(page.categoryName == "Exercise")
        #expect(page.info == "Stretch and breathe.")
        #expect(page.categoryColor == ColorStyle(TestData.exercise.color))
        #expect(page.isFavorite)
        #expect(page.groups.isEmpty)
    }

    @Test func groupsTiedUsersByCountWithLeadersFirst() throws {
        let page = try page(["user3": 2, "user2": 5, "user1": 5, "activeUser": 2, "user4": 1, "user5": 0])
        #expect(page.groups.map(\.count) == [5, 2, 1])
        #expect(page.groups.map(\.isLeaders) == [true, false, false])
        #expect(page.groups.map(\.title) == ["Leaders", "2", "1"])
        #expect(page.groups.map(\.rank) == [1, 3, 5])
        #expect(page.groups.map { $0.members.map(\.name) } == [["Amy", "Bob"], ["Active User", "Cat"], ["Dan"]])
        #expect(page.groups[1].members[0].isActiveUser)
        #expect(page.groups.map(\.percent) == [100, 40, 20])
        #expect(page.groups[2].members[0].fraction == 0.2)
        #expect(page.groups[0].members[0].path == "/people/user1")
        #expect(page.groups[1].members[1].color == .neutral)
    }

    @Test func aSingleLeaderIsTheLeadersGroup() throws {
        let page = try page(["user4": 3])
        #expect(page.groups.count == 1)
        #expect(page.groups[0].isLeaders)
        #expect(page.groups[0].members.map(\.userID) == ["user4"])
    }

    @Test func unknownHabitIsNil() {
        let page = HabitDetailPage(
            habitName: "Juggling", habits: TestData.habits, statistics: TestData.statistics([:]).habitStatistics,
            settings: .default)
        #expect(page == nil)
    }

    @Test func habitKnownOnlyToTheStatisticsStillShows() throws {
        let statistics = [
            HabitStatistics(habit: TestData.slashy, userCounts: [UserCount(user: TestData.amy, count: 1)])
        ]
        let page = try #require(
            HabitDetailPage(
                habitName: TestData.slashy.name, habits: [:], statistics: statistics, settings: .default))
        #expect(page.path == "/habits/Push-ups%2FSit-ups%20%26%20Cr%C3%AApes")
        #expect(page.groups.first?.members.first?.name == "Amy")
    }
}
