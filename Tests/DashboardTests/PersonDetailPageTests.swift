import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PersonDetailPageTests {
    private static let counts: [String: [String: Int]] = [
        "Yoga": ["user1": 5, "user2": 3],
        "Run": ["user1": 1, "user2": 4],
        "Swim": ["user1": 2],
        "Meditation": ["user1": 7, "user2": 7],
        "Deep breathing": ["user1": 0],
        "Eat fruit": ["user1": 1, "user3": 9],
    ]

    private func leading(_ names: [String], of user: User) -> UserStatistics {
        let statistics = TestData.statistics(Self.counts).userStatistics.first { $0.user.id == user.id }
        return UserStatistics(
            user: user, habitCounts: (statistics?.habitCounts ?? []).filter { names.contains($0.habit.name) })
    }

    @Test func showsLeadingThenOtherHabitsByCategory() throws {
        let page = try #require(
            PersonDetailPage(
                userID: "user1", users: TestData.users, statistics: TestData.statistics(Self.counts).userStatistics,
                leading: leading(["Yoga", "Swim", "Meditation"], of: TestData.amy),
                settings: Settings(followedUserIDs: ["user1"])))
        #expect(page.name == "Amy")
        #expect(page.bio == "Hi.")
        #expect(page.color == ColorStyle(background: "#ff0000", text: "#000000"))
        #expect(page.imagePath == "/images/user1")
        #expect(page.isFollowed)
        #expect(page.leading.map(\.name) == ["Meditation", "Swim", "Yoga"])
        #expect(page.leading.map(\.count) == [7, 2, 5])
        #expect(page.categories.map(\.title) == ["Eating", "Exercise"])
        #expect(page.categories.map { $0.habits.map(\.name) } == [["Eat fruit"], ["Run"]])
        #expect(page.categories[1].color == ColorStyle(TestData.exercise.color))
        #expect(page.categories[1].habits[0].path == "/habits/Run")
    }

    @Test func withoutLeadingStatisticsEveryHabitIsUnderItsCategory() throws {
        let page = try #require(
            PersonDetailPage(
                userID: "user2", users: TestData.users, statistics: TestData.statistics(Self.counts).userStatistics,
                leading: UserStatistics(user: TestData.bob, habitCounts: []), settings: .default))
        #expect(page.leading.isEmpty)
        #expect(page.categories.map(\.title) == ["Exercise", "Mindfulness"])
        #expect(page.categories[0].habits.map(\.name) == ["Run", "Yoga"])
        #expect(page.color == ColorStyle(background: "#008080", text: "#ffffff"))
        #expect(!page.isFollowed)
    }

    @Test func leadingStatisticsOfAnotherUserAreIgnored() throws {
        let page = try #require(
            PersonDetailPage(
                userID: "user2", users: TestData.users, statistics: TestData.statistics(Self.counts).userStatistics,
                leading: leading(["Yoga"], of: TestData.amy), settings: .default))
        #expect(page.leading.isEmpty)
    }

    @Test func aUserWithNoLogsHasNoSections() throws {
        let page = try #require(
            PersonDetailPage(
                userID: "user3", users: TestData.users, statistics: [], leading: nil, settings: .default))
        #expect(page.bio == nil)
        #expect(page.color == .neutral)
        #expect(page.leading.isEmpty)
        #expect(page.categories.isEmpty)
    }

    @Test func unknownUserIsNil() {
        let page = PersonDetailPage(
            userID: "nobody", users: TestData.users, statistics: [], leading: nil, settings: .default)
        #expect(page == nil)
    }
}
