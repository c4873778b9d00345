import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct HomePageTests {
    /// One leaderboard situation: Yoga's counts by user id → the two lines.
    struct LeaderboardCase: CustomTestStringConvertible, Sendable {
        var name: String
        var counts: [String: Int]
        var leader: String
        var second: String?
        var testDescription: String { name }
    }

    static let leaderboardCases: [LeaderboardCase] = [
        .init(name: "nobody logged it", counts: [:], leader: "Nobody yet!", second: nil),
        .init(name: "only zero counts", counts: ["user1": 0, "user2": 0], leader: "Nobody yet!", second: nil),
        .init(name: "one user", counts: ["user1": 3], leader: "Amy 3", second: nil),
        .init(name: "only you", counts: ["activeUser": 3], leader: "You 3 (1st)", second: nil),
        .init(name: "leader and runner-up", counts: ["user2": 3, "user1": 5], leader: "Amy 5", second: "Bob 3"),
        .init(
            name: "tie at the top, ordered by name", counts: ["user2": 5, "user1": 5, "user3": 2],
            leader: "Amy and Bob 5", second: "Cat 2"),
        .init(
            name: "three tied leaders", counts: ["user2": 5, "user1": 5, "user3": 5, "user4": 1],
            leader: "Amy, Bob and Cat 5", second: "Dan 1"),
        .init(
            name: "everybody tied", counts: ["user2": 5, "user1": 5], leader: "Amy and Bob 5", second: nil),
        .init(
            name: "you tie at the top and sort first by name", counts: ["user1": 5, "activeUser": 5],
            leader: "You and Amy 5 (1st)", second: nil),
        .init(
            name: "you tie at the top with a runner-up", counts: ["user1": 5, "activeUser": 5, "user2": 2],
            leader: "You and Amy 5 (1st)", second: "Bob 2"),
        .init(
            name: "you lead alone", counts: ["activeUser": 7, "user1": 5, "user2": 5], leader: "You 7 (1st)",
            second: "Amy 5"),
        .init(
            name: "you in the middle after a tie",
            counts: [
                "user1": 9, "user2": 5, "user3": 5, "activeUser": 3,
                "user4": 1,
            ],
            leader: "Amy 9", second: "You 3 (4th)"),
        .init(
            name: "you tied in the middle", counts: ["user1": 9, "user2": 5, "activeUser": 5, "user4": 1],
            leader: "Amy 9", second: "You 5 (2nd)"),
        .init(
            name: "you third after a tie at the top", counts: ["user1": 5, "user2": 5, "activeUser": 2],
            leader: "Amy and Bob 5", second: "You 2 (3rd)"),
        .init(
            name: "you absent", counts: ["user1": 9, "user3": 5, "user2": 5], leader: "Amy 9", second: "Bob 5"),
        .init(
            name: "ties order names ignoring case", counts: ["user5": 4, "user4": 4],
            leader: "Dan and zoe 4", second: nil),
    ]

    @Test(arguments: leaderboardCases)
    func leaderboardLines(_ example: LeaderboardCase) throws {
        let statistics = TestData.statistics(["Yoga": example.counts])
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(favoriteHabits: ["Yoga"]))
        let card = try #require(page.leaderboard.first)
        #expect(page.leaderboard.count == 1)
        #expect(card.leader.text == example.leader)
        #expect(card.second?.text == example.second)
    }

    @Test func tiedLeadersAreEachListedForLinks() throws {
        let statistics = TestData.statistics(["Yoga": ["user2": 5, "user1": 5, "user3": 5]])
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(favoriteHabits: ["Yoga"]))
        let card = try #require(page.leaderboard.first)
        #expect(card.leaders.map(\.name) == ["Amy", "Bob", "Cat"])
        #expect(card.leaders.map(\.userPath) == ["/people/user1", "/people/user2", "/people/user3"])
        #expect(
            (0..<3).map { LeaderboardCard.separator(before: $0, of: 3) } == ["", ", ", " and "])
    }

    @Test func leaderboardHasOneCardPerExistingFavouriteSortedByName() {
        let settings = Settings(favoriteHabits: ["Yoga", "Gone for good", "Meditation", "Deep breathing"])
        let page = HomePage(statistics: TestData.statistics([:]), users: TestData.users, settings: settings)
        #expect(page.leaderboard.map(\.habitName) == ["Deep breathing", "Meditation", "Yoga"])
        #expect(page.leaderboard.map(\.categoryName) == ["Mindfulness", "Mindfulness", "Exercise"])
        #expect(page.leaderboard[2].categoryColor == ColorStyle(background: "#73e600", text: "#000000"))
    }

    @Test func aFavouriteListedTwiceHasOneCard() {
        let settings = Settings(favoriteHabits: ["Yoga", "Meditation", "Yoga", "Meditation"])
        let page = HomePage(statistics: TestData.statistics([:]), users: TestData.users, settings: settings)
        #expect(page.leaderboard.map(\.habitName) == ["Meditation", "Yoga"])
    }

    /// A snapshot built from the previous one keeps its name order while the reference data is the same, so a habit
    /// only the new statistics name has no place in it: the cards are then sorted name by name.
    @Test func aFavouriteOnlyTheNewStatisticsNameIsSortedAmongTheOthers() {
        let aerobics = Habit(name: "Aerobics", category: TestData.yoga.category, info: "Jump.")
        let before = SnapshotInputs(
            users: TestData.users, habits: TestData.habits, statistics: TestData.statistics([:]))
        let after = SnapshotInputs(
            users: TestData.users, habits: TestData.habits,
            statistics: TestData.statistics(["Aerobics": ["user1": 2]], habitList: TestData.allHabits + [aerobics]))
        let snapshot = Snapshot(inputs: after, previous: Snapshot(inputs: before))
        #expect(snapshot.order.place("Aerobics") == nil)
        let page = HomePage(
            snapshot: snapshot, settings: Settings(favoriteHabits: ["Yoga", "Aerobics", "Run", "Aerobics"]))
        #expect(page.leaderboard.map(\.habitName) == ["Aerobics", "Run", "Yoga"])
        #expect(page.leaderboard.first?.leader.name == "Amy")
    }

    @Test func rankingLinesCarryTheUserForLinks() throws {
        let statistics = TestData.statistics(["Yoga": ["user1": 4, "activeUser": 2]])
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(favoriteHabits: ["Yoga"]))
        let card = try #require(page.leaderboard.first)
        #expect(card.habitPath == "/habits/Yoga")
        #expect(card.leader.userPath == "/people/user1")
        #expect(card.leader.name == "Amy")
        #expect(card.leader.count == 4)
        #expect(card.leader.rank == 1)
        #expect(card.second?.isActiveUser == true)
        #expect(card.second?.name == "You")
        #expect(card.second?.rank == 2)
        #expect(RankingLine.nobodyYet.userID == nil)
    }

    /// One Following situation: the counts, the favourites, the followed user → the exact message.
    struct FollowingCase: CustomTestStringConvertible, Sendable {
        var name: String
        var counts: [String: [String: Int]]
        var favorites: [String] = []
        var message: String
        var habit: String?
        var testDescription: String { name }
    }

    static let followingCases: [FollowingCase] = [
        .init(
            name: "behind you", counts: ["Yoga": ["activeUser": 5, "user1": 3]],
            message: "Currently 2nd, behind you (1st) in Yoga. Send them a friendly reminder!", habit: "Yoga"),
        .init(
            name: "ahead of you", counts: ["Yoga": ["activeUser": 3, "user1": 5]],
            message: "Currently 1st, ahead of you (2nd) in Yoga. You might catch up with a little extra effort!",
            habit: "Yoga"),
        .init(
            name: "tied at the top", counts: ["Yoga": ["activeUser": 4, "user1": 4]],
            message: "You're tied at 1st in Yoga! Now's your chance to pull ahead.", habit: "Yoga"),
        .init(
            name: "tied in the middle", counts: ["Yoga": ["user2": 9, "activeUser": 4, "user1": 4, "user3": 1]],
            message: "You're tied at 2nd in Yoga! Now's your chance to pull ahead.", habit: "Yoga"),
        .init(
            name: "behind you after a tie above",
            counts: [
                "Yoga": [
                    "user2": 9, "user3": 9, "activeUser": 4,
                    "user1": 1,
                ]
            ],
            message: "Currently 4th, behind you (3rd) in Yoga. Send them a friendly reminder!", habit: "Yoga"),
        .init(
            name: "alphabetically first common habit",
            counts: ["Yoga": ["activeUser": 1, "user1": 5], "Run": ["activeUser": 2, "user1": 1]],
            message: "Currently 2nd, behind you (1st) in Run. Send them a friendly reminder!", habit: "Run"),
        .init(
            name: "a common favourite wins over the alphabet",
            counts: ["Yoga": ["activeUser": 1, "user1": 5], "Run": ["activeUser": 2, "user1": 1]],
            favorites: ["Yoga"],
            message: "Currently 1st, ahead of you (2nd) in Yoga. You might catch up with a little extra effort!",
            habit: "Yoga"),
        .init(
            name: "a favourite that is not common is passed over",
            counts: [
                "Yoga": ["activeUser": 1, "user1": 5], "Run": ["activeUser": 2, "user1": 1],
                "Swim": [
                    "user1": 1
                ],
            ],
            favorites: ["Swim"],
            message: "Currently 2nd, behind you (1st) in Run. Send them a friendly reminder!", habit: "Run"),
        .init(
            name: "no habit in common",
            counts: ["Swim": ["user1": 2, "user2": 5], "Yoga": ["user1": 1], "Run": ["activeUser": 3]],
            message: "Currently 2nd in Swim. Maybe you should give this habit a look.", habit: "Swim"),
        .init(
            name: "the only one with a habit", counts: ["Swim": ["user1": 3]],
            message: "Currently 1st in Swim. Maybe you should give this habit a look.", habit: "Swim"),
        .init(
            name: "the active user has no statistics", counts: ["Yoga": ["user1": 2, "user2": 5]],
            message: "Currently 2nd in Yoga. Maybe you should give this habit a look.", habit: "Yoga"),
        .init(
            name: "no logs at all", counts: ["Yoga": ["activeUser": 2, "user2": 5]],
            message: "This user doesn't seem to have done much yet. Check in to see if they need any help getting "
                + "started.", habit: nil),
        .init(
            name: "only zero counts", counts: ["Yoga": ["activeUser": 2, "user1": 0]],
            message: "This user doesn't seem to have done much yet. Check in to see if they need any help getting "
                + "started.", habit: nil),
    ]

    @Test(arguments: followingCases)
    func followingMessage(_ example: FollowingCase) throws {
        let settings = Settings(favoriteHabits: example.favorites, followedUserIDs: ["user1"])
        let page = HomePage(statistics: TestData.statistics(example.counts), users: TestData.users, settings: settings)
        let row = try #require(page.following.first)
        #expect(page.following.count == 1)
        #expect(row.message == example.message)
        #expect(row.habitName == example.habit)
        #expect(row.messagePrefix + (row.habitName ?? "") + row.messageSuffix == row.message)
    }

    @Test func followingUsesTheActiveUserAbsentFromStatistics() throws {
        // The active user is missing from the statistics entirely, not just without counts.
        let statistics = TestData.statistics(["Yoga": ["user1": 1]], userList: TestData.allUsers)
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(followedUserIDs: ["user1"]))
        #expect(page.following.first?.message == "Currently 1st in Yoga. Maybe you should give this habit a look.")
    }

    @Test func followingListsExistingFollowedUsersByName() {
        let settings = Settings(followedUserIDs: ["user5", "user3", "vanished", "user1", "user2", "user3"])
        let page = HomePage(statistics: TestData.statistics([:]), users: TestData.users, settings: settings)
        #expect(page.following.map(\.name) == ["Amy", "Bob", "Cat", "zoe"])
        #expect(page.following.map(\.userPath) == ["/people/user1", "/people/user2", "/people/user3", "/people/user5"])
        #expect(page.following[2].color == .neutral)
        #expect(page.following[0].color == ColorStyle(background: "#ff0000", text: "#000000"))
        #expect(!page.showsIntroduction)
    }

    @Test func messageHabitLinksAreEncoded() throws {
        let statistics = TestData.statistics(
            ["Push-ups/Sit-ups & Crêpes": ["user1": 1]], habitList: TestData.allHabits + [TestData.slashy])
        let page = HomePage(
            statistics: statistics, users: TestData.users, settings: Settings(followedUserIDs: ["user1"]))
        let row = try #require(page.following.first)
        #expect(row.habitPath == "/habits/Push-ups%2FSit-ups%20%26%20Cr%C3%AApes")
    }

    @Test func emptyDataShowsTheIntroduction() {
        let page = HomePage(
            statistics: CombinedStatistics(userStatistics: [], habitStatistics: []), users: [:], settings: .default)
        #expect(page.leaderboard.isEmpty)
        #expect(page.following.isEmpty)
        #expect(page.showsIntroduction)
    }

    @Test func vanishedFavouritesAndFollowsShowTheIntroductionWithoutTouchingSettings() {
        let settings = Settings(favoriteHabits: ["Gone"], followedUserIDs: ["ghost"])
        let page = HomePage(statistics: TestData.statistics([:]), users: TestData.users, settings: settings)
        #expect(page.showsIntroduction)
        #expect(settings.favoriteHabits == ["Gone"])
    }
}
