/// Counts at one generation: what the statistics responses are built from.
struct Counters: Sendable, Equatable {
    /// The state's generation when copied.
    var generation: UInt64
    /// Users per habit row (simulated users + the active user).
    var columns: Int
    /// `habit * columns + user`.
    var counts: [Int]
    /// The highest count per habit.
    var maxima: [Int]

    /// How many times `user` logged `habit`.
    func count(user: Int, habit: Int) -> Int { counts[habit * columns + user] }

    /// Whether `user` leads `habit`: their count is the habit's maximum and above zero (ties all lead).
    func leads(user: Int, habit: Int) -> Bool {
        let count = self.count(user: user, habit: habit)
        return count > 0 && count == maxima[habit]
    }
}
