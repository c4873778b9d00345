import HabitsAPI

/// Small, hand-made upstream data for the view-model tests: a few users, habits and categories, and a builder that
/// turns a table of counts into consistent user and habit statistics.
enum TestData {
    static let exercise = Category(name: "Exercise", color: Color(hue: 0.25, saturation: 1, brightness: 0.9))
    static let mindfulness = Category(name: "Mindfulness", color: Color(hue: 0.85, saturation: 0.5, brightness: 0.8))
    static let eating = Category(name: "Eating", color: Color(hue: 0.5, saturation: 0.5, brightness: 0.8))

    static let yoga = Habit(name: "Yoga", category: exercise, info: "Stretch and breathe.")
    static let run = Habit(name: "Run", category: exercise, info: "Go for a run.")
    static let swim = Habit(name: "Swim", category: exercise, info: "Laps.")
    static let meditate = Habit(name: "Meditation", category: mindfulness, info: "Sit quietly.")
    static let breathe = Habit(name: "Deep breathing", category: mindfulness, info: "In and out.")
    static let fruit = Habit(name: "Eat fruit", category: eating, info: "An apple a day.")
    static let slashy = Habit(name: "Push-ups/Sit-ups & Crêpes", category: eating, info: "Odd name.")

    static let allHabits = [yoga, run, swim, meditate, breathe, fruit]
    static var habits: [String: Habit] { Dictionary(uniqueKeysWithValues: allHabits.map { ($0.name, $0) }) }

    static let you = User(id: User.activeUserID, name: "Active User")
    static let amy = User(id: "user1", name: "Amy", color: Color(hue: 0, saturation: 1, brightness: 1), bio: "Hi.")
    static let bob = User(id: "user2", name: "Bob", color: Color(hue: 0.5, saturation: 1, brightness: 0.5))
    static let cat = User(id: "user3", name: "Cat", color: nil, bio: nil)
    static let dan = User(id: "user4", name: "Dan", color: Color(hue: 0.75, saturation: 0.9, brightness: 0.2))
    static let zoe = User(id: "user5", name: "zoe", color: Color(hue: 0.1, saturation: 0.3, brightness: 0.9))

    /// The upstream's `/users` has no active user.
    static let allUsers = [amy, bob, cat, dan, zoe]
    static var users: [String: User] { Dictionary(uniqueKeysWithValues: allUsers.map { ($0.id, $0) }) }

    /// Statistics from `counts[habitName][userID] = count`. Every habit in `habitList` appears in the habit
    /// statistics (with empty `userCounts` when nobody logged it), as the API does.
    static func statistics(
        _ counts: [String: [String: Int]], habitList: [Habit] = allHabits, userList: [User] = allUsers + [you]
    ) -> CombinedStatistics {
        let usersByID = Dictionary(uniqueKeysWithValues: userList.map { ($0.id, $0) })
        let habitsByName = Dictionary(uniqueKeysWithValues: habitList.map { ($0.name, $0) })
        let habitStatistics = habitList.map { habit in
            HabitStatistics(
                habit: habit,
                userCounts: (counts[habit.name] ?? [:]).sorted { $0.key < $1.key }.compactMap { id, count in
                    usersByID[id].map { UserCount(user: $0, count: count) }
                })
        }
        let userStatistics = userList.map { user in
            UserStatistics(
                user: user,
                habitCounts: counts.sorted { $0.key < $1.key }.compactMap { name, perUser in
                    guard let count = perUser[user.id], let habit = habitsByName[name] else { return nil }
                    return HabitCount(habit: habit, count: count)
                })
        }
        return CombinedStatistics(userStatistics: userStatistics, habitStatistics: habitStatistics)
    }
}
