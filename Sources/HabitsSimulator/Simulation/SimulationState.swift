/// The simulation's mutable core as a plain value: counts, per-habit maxima, the generator and the rates.
///
/// No clock and no locks: the `Simulator` owns one behind a mutex and feeds it ticks, so a test can step it by hand
/// and two states with the same seed stay identical tick for tick.
struct SimulationState: Sendable {
    /// Number of simulated users; index `userCount` is the active user.
    let userCount: Int
    /// Number of habits.
    let habitCount: Int
    /// Who does what, and how often.
    let rates: RateTable
    /// Counts, `habit * columns + user`, where `columns = userCount + 1` (the active user last).
    private(set) var counts: [Int]
    /// The highest count per habit; counts only grow between resets, so this stays O(1) to maintain.
    private(set) var maxima: [Int]
    /// Bumped on every change; caches of encoded responses are keyed by it. Never goes back, even on reset.
    private(set) var generation: UInt64 = 0
    /// Events recorded since the last reset (simulated and logged).
    private(set) var eventCount = 0
    /// Ticks since the last reset.
    private(set) var tickCount = 0
    private var generator: SeededGenerator
    /// The generator right after the rates were drawn: a reset replays the same run.
    private let initialGenerator: SeededGenerator

    /// Draws the rates from `seed` (each user may do any habit, or `habitsEach` of them) and starts with every count
    /// at zero.
    init(userCount: Int, habitCount: Int, seed: UInt64, habitsEach: ClosedRange<Int>? = nil) {
        self.userCount = userCount
        self.habitCount = habitCount
        var generator = SeededGenerator(seed: seed)
        if let habitsEach {
            rates = RateTable(
                userCount: userCount, habitCount: habitCount, habitsEach: habitsEach, generator: &generator)
        } else {
            rates = RateTable(userCount: userCount, habitCount: habitCount, generator: &generator)
        }
        self.generator = generator
        initialGenerator = generator
        counts = Array(repeating: 0, count: habitCount * (userCount + 1))
        maxima = Array(repeating: 0, count: habitCount)
    }

    /// The index of the active user in counts.
    var activeUserIndex: Int { userCount }

    /// How many times `user` logged `habit`.
    func count(user: Int, habit: Int) -> Int { counts[habit * (userCount + 1) + user] }

    /// One simulation step: a weighted-random simulated user logs a weighted-random habit of theirs.
    @discardableResult
    mutating func tick() -> (user: Int, habit: Int)? {
        tickCount += 1
        guard let event = rates.sample(using: &generator) else { return nil }
        record(user: event.user, habit: event.habit)
        return event
    }

    /// Adds one event. O(1): one count, one maximum, the generation.
    mutating func record(user: Int, habit: Int) {
        let index = habit * (userCount + 1) + user
        counts[index] += 1
        if counts[index] > maxima[habit] { maxima[habit] = counts[index] }
        eventCount += 1
        generation += 1
    }

    /// Back to the start: zero counts and the generator as it was after drawing the rates.
    mutating func reset() {
        counts = Array(repeating: 0, count: counts.count)
        maxima = Array(repeating: 0, count: maxima.count)
        generator = initialGenerator
        eventCount = 0
        tickCount = 0
        generation += 1
    }

    /// An immutable copy of the counts for building responses outside the lock.
    var counters: Counters {
        Counters(generation: generation, columns: userCount + 1, counts: counts, maxima: maxima)
    }
}
