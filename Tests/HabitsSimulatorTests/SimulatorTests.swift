import Foundation
import HabitsAPI
import TestSupport
import Testing

@testable import HabitsSimulator

@Suite struct SimulatorTests {
    static func builtIn(seed: UInt64 = 1) throws -> Simulator {
        try Simulator(dataSet: .builtIn(), seed: seed, logger: .silent)
    }

    @Test func twoRunsWithTheSameSeedGiveIdenticalStatsAfterTheSameTicks() throws {
        let a = try Self.builtIn(seed: 2026)
        let b = try Self.builtIn(seed: 2026)
        a.step(300)
        b.step(300)
        #expect(a.snapshot().combined == b.snapshot().combined)
        #expect(a.eventCount == 300)
        let c = try Self.builtIn(seed: 2027)
        c.step(300)
        #expect(c.snapshot().combined != a.snapshot().combined)
    }

    @Test func loggingChangesExactlyOneCount() throws {
        let simulator = try Self.builtIn()
        simulator.step(100)
        let before = simulator.snapshot().counters
        try simulator.log(userID: "user7", habitName: "Read & Reflect")
        let after = simulator.snapshot().counters
        let changed = zip(before.counts, after.counts).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first.map { $1 - $0 } == 1)
        #expect(simulator.count(userID: "user7", habitName: "Read & Reflect") == changed.first?.1)
    }

    @Test func unknownUsersAndHabitsChangeNothing() throws {
        let simulator = try Self.builtIn()
        simulator.step(10)
        let generation = simulator.generation
        #expect(throws: SimulatorError.unknownUser("ghost")) {
            try simulator.log(userID: "ghost", habitName: "Sketching")
        }
        #expect(throws: SimulatorError.unknownHabit("Flying")) {
            try simulator.log(userID: "user1", habitName: "Flying")
        }
        #expect(simulator.generation == generation)
        #expect(simulator.eventCount == 10)
    }

    @Test func theActiveUserAppearsInStatsOnceItHasLogged() throws {
        let simulator = try Self.builtIn()
        let before = try JSONDecoder().decode(
            CombinedStatistics.self, from: Data(simulator.snapshot().combined))
        #expect(!before.userStatistics.contains { $0.user.id == "activeUser" })
        try simulator.log(userID: "activeUser", habitName: "Herbal tea")
        let after = try JSONDecoder().decode(CombinedStatistics.self, from: Data(simulator.snapshot().combined))
        let mine = try #require(after.userStatistics.first { $0.user.id == "activeUser" })
        #expect(mine.user.name == "Active User")
        #expect(mine.habitCounts.map(\.habit.name) == ["Herbal tea"])
        let tea = try #require(after.habitStatistics.first { $0.habit.name == "Herbal tea" })
        #expect(tea.userCounts.map(\.user.name) == ["Active User"])
    }

    @Test func speedMustStayInRange() throws {
        let simulator = try Self.builtIn()
        #expect(throws: SimulatorError.speedOutOfRange(10.5)) { try simulator.setSpeed(10.5) }
        #expect(throws: SimulatorError.speedOutOfRange(0.05)) { try simulator.setSpeed(0.05) }
        try simulator.setSpeed(0.1)
        try simulator.setSpeed(10)
        #expect(simulator.speed == 10)
    }

    /// The ticker is on the simulator's clock, moved by hand: one tick per interval, the interval follows the speed,
    /// a second `start()` starts no second ticker, and after `stop()` no move of the clock ticks again.
    @Test func startAndStopToggleATickerOnTheClock() async throws {
        let clock = ManualClock()
        let simulator = try Simulator(dataSet: .builtIn(), seed: 1, clock: clock, logger: .silent)
        #expect(!simulator.isRunning)
        try simulator.setSpeed(10)  // a tick every 33.3 ms
        simulator.start()
        simulator.start()
        #expect(simulator.isRunning)
        for tick in 1...3 {
            await eventually("the ticker asleep before tick \(tick)") { clock.sleeperCount == 1 }
            clock.advance(by: Simulator.interval(speed: 10))
            await eventually("tick \(tick)") { simulator.eventCount == tick }
        }
        try simulator.setSpeed(1)  // a tick every 333 ms, from now
        await eventually("the slower ticker asleep") { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(300))
        #expect(clock.sleeperCount == 1, "not due at the new speed")
        #expect(simulator.eventCount == 3)
        clock.advance(by: .milliseconds(34))
        await eventually("the tick at the new speed") { simulator.eventCount == 4 }
        await eventually("the ticker asleep again") { clock.sleeperCount == 1 }
        simulator.stop()
        #expect(!simulator.isRunning)
        // Stopping cancelled the ticker, which wakes its sleep; no move of the clock ticks again.
        await eventually("the ticker gone") { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(60))
        for _ in 0..<1000 { await Task.yield() }
        #expect(simulator.eventCount == 4)
    }

    @Test func resetZeroesCounts() throws {
        let simulator = try Self.builtIn()
        simulator.step(50)
        try simulator.log(userID: "activeUser", habitName: "Sketching")
        simulator.reset()
        #expect(simulator.eventCount == 0)
        #expect(simulator.snapshot().counters.counts.allSatisfy { $0 == 0 })
    }

    @Test func snapshotsAreSharedUntilTheNextEvent() throws {
        let simulator = try Self.builtIn()
        simulator.step(5)
        let first = simulator.snapshot()
        #expect(simulator.snapshot() === first)
        simulator.step()
        #expect(simulator.snapshot() !== first)
    }

    @Test func tickerIntervalScalesWithSpeed() {
        #expect(Simulator.interval(speed: 1) == .nanoseconds(333_333_333))
        #expect(Simulator.interval(speed: 10) == .nanoseconds(33_333_333))
    }
}
