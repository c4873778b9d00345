import Foundation
import HabitsAPI
import HabitsSimulator
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Every view model built from a real simulator's answers (through the client and the cache), checked for the
/// cross-page facts that must agree: the same leaders everywhere, every habit exactly once.
@Suite struct ViewModelsOverSimulatorTests {
    @Test func pagesAgreeWithEachOtherOnLiveData() async throws {
        let embedded = try startEmbeddedSimulator(port: 0, seed: 5, runSimulation: false, logger: .silent)
        embedded.simulator.step(1500)
        defer { embedded.simulator.stop() }
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: embedded.port)
        // Hang guards only: on a loaded machine a call can wait seconds for a thread before it starts.
        configuration.connectTimeout = .seconds(30)
        configuration.totalTimeout = .seconds(60)
        let api = RequestCoalescer(upstream: HabitsClient(configuration: configuration))
        let habitNames = try await api.habits().keys.sorted()
        try await api.log(
            LoggedHabit(userID: User.activeUserID, habitName: habitNames[0], timestamp: Date()))

        async let usersAnswer = api.users()
        async let habitsAnswer = api.habits()
        async let statisticsAnswer = api.combinedStatistics()
        let (users, habits, statistics) = try await (usersAnswer, habitsAnswer, statisticsAnswer)
        let userIDs = users.keys.sorted()
        let settings = Settings(
            favoriteHabits: Array(habitNames.prefix(3)) + ["Vanished habit"],
            followedUserIDs: Array(userIDs.prefix(4)) + ["vanished-user"])

        let home = HomePage(statistics: statistics, users: users, settings: settings)
        #expect(home.leaderboard.map(\.habitName) == Array(habitNames.prefix(3)))
        #expect(home.following.count == 4)
        #expect(home.following.allSatisfy { !$0.message.isEmpty })
        // You logged the first habit, so its card shows you on one of its two lines.
        #expect(home.leaderboard[0].leader.isActiveUser || home.leaderboard[0].second?.isActiveUser == true)

        for card in home.leaderboard {
            let detail = try #require(
                HabitDetailPage(
                    habitName: card.habitName, habits: habits, statistics: statistics.habitStatistics,
                    settings: settings))
            if let leaderID = card.leader.userID {
                #expect(detail.groups.first?.members.contains { $0.userID == leaderID } == true)
                #expect(detail.groups.first?.count == card.leader.count)
            } else {
                #expect(detail.groups.isEmpty)
            }
        }

        let list = HabitsListPage(habits: habits, settings: settings)
        #expect(list.sections.flatMap(\.habits).map(\.name).sorted() == habitNames)
        let log = LogHabitPage(habits: habits, settings: settings)
        #expect((log.favorites + log.categories.flatMap(\.habits)).count == habits.count)

        let people = PeoplePage(users: users, settings: settings, followedOnly: true)
        #expect(people.people.map(\.userID).sorted() == Array(userIDs.prefix(4)))

        for id in userIDs.prefix(6) {
            let leading = try await api.userLeadingStatistics(id: id)
            let person = try #require(
                PersonDetailPage(
                    userID: id, users: users, statistics: statistics.userStatistics, leading: leading,
                    settings: settings))
            let shown = person.leading.map(\.name) + person.categories.flatMap(\.habits).map(\.name)
            let logged = statistics.userStatistics.first { $0.user.id == id }?.habitCounts.filter { $0.count > 0 }
            #expect(shown.sorted() == (logged ?? []).map(\.habit.name).sorted())
            #expect(Set(person.leading.map(\.name)).isDisjoint(with: person.categories.flatMap(\.habits).map(\.name)))
        }
        await embedded.shutdown()
    }
}
