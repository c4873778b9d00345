import HabitsAPI
import Logging
import Synchronization
import Timing

/// The simulated social network: counts per (user, habit), a ticker that logs weighted-random events while
/// running, and the statistics built from the counts.
///
/// State lives in a `SimulationState` value behind a mutex: every event is O(1) under the lock. Encoded
/// statistics are cached per generation, so polling clients share one encoding until the next event.
/// Determinism comes from ticks, not wall time: `step(_:)` advances by hand exactly as the timer does.
public final class Simulator: Sendable {
    /// Events per second at speed 1.0: "a few per second".
    public static let baseEventsPerSecond = 3.0
    /// Allowed speed multipliers.
    public static let speedRange: ClosedRange<Double> = 0.1...10

    /// The data being simulated.
    public let dataSet: DataSet
    /// The seed the rates and events come from (random unless given).
    public let seed: UInt64
    let encoder: StatisticsEncoder
    private let userIndexes: [String: Int]
    private let habitIndexes: [String: Int]
    private let logger: Logger
    private let core: Mutex<Core>
    private let cache = Mutex<StatisticsSnapshot?>(nil)
    /// The ticker's clock (`TimeSource.every`, the one repeating timer).
    private let clock: any TimeSource

    /// Mutable state; the timer exists exactly while the simulation runs.
    private struct Core {
        var state: SimulationState
        var speed: Double
        var timer: Task<Void, Never>?
        /// Bumped on every start, stop and change of speed. A tick already under way when `stop()` ran carries an
        /// old epoch and is dropped, so no event lands after `stop()` returns.
        var epoch: UInt64 = 0
    }

    /// Creates a stopped simulator over `dataSet`, ticking on `clock`. `seed` nil picks a random one; `speed` is
    /// clamped into range.
    public init(
        dataSet: DataSet, seed: UInt64? = nil, speed: Double = 1, clock: any TimeSource = SystemTimeSource(),
        logger: Logger
    ) {
        self.dataSet = dataSet
        self.clock = clock
        self.seed = seed ?? UInt64.random(in: .min ... .max)
        self.logger = logger
        encoder = StatisticsEncoder(dataSet: dataSet)
        var users: [String: Int] = [:]
        for (index, user) in dataSet.users.enumerated() { users[user.id] = index }
        users[dataSet.activeUser.id] = dataSet.users.count
        userIndexes = users
        var habits: [String: Int] = [:]
        for (index, habit) in dataSet.habits.enumerated() { habits[habit.name] = index }
        habitIndexes = habits
        var habitsEach: ClosedRange<Int>?
        if case .fewHabitsEach(let range) = dataSet.activity { habitsEach = range }
        let state = SimulationState(
            userCount: dataSet.users.count, habitCount: dataSet.habits.count, seed: self.seed, habitsEach: habitsEach)
        core = Mutex(Core(state: state, speed: min(max(speed, Self.speedRange.lowerBound), Self.speedRange.upperBound)))
    }

    deinit {
        core.withLock { $0.timer?.cancel() }
    }

    // MARK: - Control

    /// Whether the ticker is logging events.
    public var isRunning: Bool { core.withLock { $0.timer != nil } }

    /// The current speed multiplier.
    public var speed: Double { core.withLock { $0.speed } }

    /// Starts the ticker; does nothing if it already runs.
    public func start() {
        core.withLock { core in
            guard core.timer == nil else { return }
            startTicker(&core)
        }
        logger.info("simulation started", ["simulator.speed": "\(speed)"])
    }

    /// Stops the ticker; counts stay.
    public func stop() {
        core.withLock { core in
            core.timer?.cancel()
            core.timer = nil
            core.epoch += 1
        }
        logger.info("simulation stopped")
    }

    /// Zeroes every count and rewinds the generator, so a seeded run replays from the start.
    public func reset() {
        core.withLock { $0.state.reset() }
        logger.info("simulation reset")
    }

    /// Sets the speed multiplier and reschedules a running ticker.
    public func setSpeed(_ speed: Double) throws(SimulatorError) {
        guard Self.speedRange.contains(speed) else { throw .speedOutOfRange(speed) }
        core.withLock { core in
            core.speed = speed
            guard let timer = core.timer else { return }
            timer.cancel()
            startTicker(&core)
        }
        logger.info("simulation speed changed", ["simulator.speed": "\(speed)"])
    }

    /// Advances the simulation by `ticks` events, exactly as the ticker would; for tests and tools.
    public func step(_ ticks: Int = 1) {
        core.withLock { core in
            for _ in 0..<ticks { core.state.tick() }
        }
    }

    /// Ticks in the history played at start: half an hour at the base rate (issue 10: a first visit should find
    /// people and habits with counts, not a blank dashboard).
    public static let historyTicks = Int(baseEventsPerSecond * 30 * 60)

    /// Plays `historyTicks` ticks at once: a past the same for every run with this seed. A made-up network
    /// (`fewHabitsEach`) gets as much per person as the built-in data's 41 people, so its habits fill up alike.
    public func playHistory() { step(historyTicks) }

    /// The ticks `playHistory` plays for this data set.
    var historyTicks: Int {
        guard case .fewHabitsEach = dataSet.activity else { return Self.historyTicks }
        return Self.historyTicks * max(1, dataSet.users.count) / 41
    }

    /// Starts a ticker at the core's speed, in a new epoch (the caller holds the lock and has stopped any other).
    private func startTicker(_ core: inout Core) {
        core.epoch += 1
        let epoch = core.epoch
        core.timer = clock.every(Self.interval(speed: core.speed)) { [weak self] in self?.timerFired(epoch: epoch) }
    }

    /// One tick from the ticker, unless the run it belongs to has been stopped meanwhile.
    private func timerFired(epoch: UInt64) {
        core.withLock { core in
            guard core.epoch == epoch else { return }
            core.state.tick()
        }
    }

    // MARK: - Logging and reading

    /// Records one event for a simulated user or the active user. Unknown names change nothing.
    public func log(userID: String, habitName: String) throws(SimulatorError) {
        guard let user = userIndexes[userID] else { throw .unknownUser(userID) }
        guard let habit = habitIndexes[habitName] else { throw .unknownHabit(habitName) }
        core.withLock { $0.state.record(user: user, habit: habit) }
    }

    /// How many times `userID` logged `habitName`, or nil if either is unknown.
    public func count(userID: String, habitName: String) -> Int? {
        guard let user = userIndexes[userID], let habit = habitIndexes[habitName] else { return nil }
        return core.withLock { $0.state.count(user: user, habit: habit) }
    }

    /// Events recorded since the last reset.
    public var eventCount: Int { core.withLock { $0.state.eventCount } }

    /// Changes so far; grows on every event and reset, never goes back.
    public var generation: UInt64 { core.withLock { $0.state.generation } }

    /// The index of a user id (simulated users first, the active user last).
    func userIndex(_ id: String) -> Int? { userIndexes[id] }

    /// The index of a habit name.
    func habitIndex(_ name: String) -> Int? { habitIndexes[name] }

    /// Every statistics response for the current counts, encoded once per generation.
    func snapshot() -> StatisticsSnapshot {
        let generation = core.withLock { $0.state.generation }
        if let cached = cache.withLock({ $0 }), cached.generation == generation { return cached }
        let counters = core.withLock { $0.state.counters }
        let snapshot = StatisticsSnapshot(counters: counters, encoder: encoder)
        cache.withLock { cached in
            if cached.map({ $0.generation < snapshot.generation }) ?? true { cached = snapshot }
        }
        return snapshot
    }

    /// The time between ticks at `speed`.
    static func interval(speed: Double) -> Duration {
        .nanoseconds(Int(1e9 / (baseEventsPerSecond * speed)))
    }
}
