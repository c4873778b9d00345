import Foundation
import HabitsAPI
import TemplateKit
import TestSupport

@testable import DashboardCore
@testable import DashboardWeb

/// A small, hostile-leaning data set: names with `/`, spaces, `&`, non-ASCII letters and HTML metacharacters.
enum Fixture {
    static let exercise = Category(name: "Exercise", color: Color(hue: 0.25, saturation: 1, brightness: 0.9))
    static let eating = Category(name: "Eating", color: Color(hue: 0.5, saturation: 0.5, brightness: 0.8))
    static let sleeping = Category(name: "Sleeping", color: Color(hue: 0.75, saturation: 0.9, brightness: 0.2))

    static let hostileName = #"<script>"&'"#

    static let yoga = Habit(name: "Yoga", category: exercise, info: "Stretch & breathe.")
    static let pushUps = Habit(name: "Push-ups/Sit-ups", category: exercise, info: "Both, one after the other.")
    static let cafe = Habit(name: "Café crème & co", category: eating, info: "Non-ASCII and an ampersand.")
    static let hostile = Habit(name: hostileName, category: eating, info: #"<img src=x onerror="alert(1)">"#)

    static let aga = User(
        id: "user0", name: "Aga Orlova", color: Color(hue: 0.757, saturation: 0.81, brightness: 0.92),
        bio: "Cinema & <b>games</b>.")
    static let brian = User(
        id: "user3", name: "Brian Mork", color: Color(hue: 0.437, saturation: 0.79, brightness: 0.86))
    static let nobody = User(id: "user9", name: #"Zed "<Nobody>""#, color: nil, bio: nil)
    static let active = User(id: User.activeUserID, name: "Active User")

    static let categories = [exercise, eating, sleeping]
    static let habits: [String: Habit] = Dictionary(
        uniqueKeysWithValues: [yoga, pushUps, cafe, hostile].map { ($0.name, $0) })
    static let users: [String: User] = Dictionary(
        uniqueKeysWithValues: [aga, brian, nobody, active].map { ($0.id, $0) })

    /// Counts per (user, habit); Aga and Brian tie on Yoga, the active user logged Yoga and the hostile habit.
    static let counts: [(User, Habit, Int)] = [
        (aga, yoga, 5), (brian, yoga, 5), (active, yoga, 3), (brian, pushUps, 2), (aga, hostile, 1),
        (active, hostile, 4), (aga, cafe, 7),
    ]

    /// What the fake upstream serves (`FakeHabitsAPI`, shared by the test targets), and what statistics and leaders
    /// are computed from.
    static let data = FakeHabitsAPI.DataSet(users: users, habits: habits, categories: categories, counts: counts)

    static var combined: CombinedStatistics { data.statistics() }

    static var userStatistics: [UserStatistics] { combined.userStatistics }

    static var habitStatistics: [HabitStatistics] { combined.habitStatistics }

    /// `/userLeadingStats/<id>` computed from `counts`.
    static func leading(_ id: String) -> UserStatistics { data.leading(id) }

    /// Settings favouring two habits (one hostile) and following two people.
    static let settings = Settings(favoriteHabits: ["Yoga", hostileName], followedUserIDs: ["user0", "user9"])

    /// The repository's `Templates/` directory, found from this file (never the working directory).
    static var templatesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates")
    }

    /// A renderer over the repository's templates in strict mode (a missing value is an error, not an empty string).
    static func renderer(prefix: PathPrefix = .none) throws -> PageRenderer {
        PageRenderer(templates: try TemplateLibrary(directory: templatesDirectory, strict: true), prefix: prefix)
    }
}
