/// How many times one user logged one habit (inside `HabitStatistics`).
public struct UserCount: Codable, Hashable, Sendable {
    /// The user.
    public var user: User
    /// How many times.
    public var count: Int
    /// Creates a count.
    public init(user: User, count: Int) {
        self.user = user
        self.count = count
    }
}

/// How many times one habit was logged by one user (inside `UserStatistics`).
public struct HabitCount: Codable, Hashable, Sendable {
    /// The habit.
    public var habit: Habit
    /// How many times.
    public var count: Int
    /// Creates a count.
    public init(habit: Habit, count: Int) {
        self.habit = habit
        self.count = count
    }
}

/// One user's counts per habit (`/userStats`, `/userLeadingStats/<id>`).
public struct UserStatistics: Codable, Hashable, Sendable {
    /// The user.
    public var user: User
    /// The habits the user logged, with counts.
    public var habitCounts: [HabitCount]
    /// Creates statistics.
    public init(user: User, habitCounts: [HabitCount]) {
        self.user = user
        self.habitCounts = habitCounts
    }
}

/// One habit's counts per user (`/habitStats`). `userCounts` is empty for a habit nobody logged.
public struct HabitStatistics: Codable, Hashable, Sendable {
    /// The habit.
    public var habit: Habit
    /// The users who logged it, with counts.
    public var userCounts: [UserCount]
    /// Creates statistics.
    public init(habit: Habit, userCounts: [UserCount]) {
        self.habit = habit
        self.userCounts = userCounts
    }
}

/// Both kinds of statistics in one response (`/combinedStats`).
public struct CombinedStatistics: Codable, Hashable, Sendable {
    /// Per-user statistics.
    public var userStatistics: [UserStatistics]
    /// Per-habit statistics.
    public var habitStatistics: [HabitStatistics]
    /// Creates combined statistics.
    public init(userStatistics: [UserStatistics], habitStatistics: [HabitStatistics]) {
        self.userStatistics = userStatistics
        self.habitStatistics = habitStatistics
    }
}
