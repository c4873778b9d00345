import Testing

@testable import HabitsSimulator

@Suite struct SimulationStateTests {
    @Test func usersHavePartialButNonEmptyHabitSets() {
        let state = SimulationState(userCount: 41, habitCount: 19, seed: 3)
        let perUser = (0..<41).map { user in (0..<19).filter { state.rates.rate(user: user, habit: $0) > 0 }.count }
        #expect(perUser.allSatisfy { $0 >= 1 })
        #expect(perUser.contains { $0 < 19 })
        let zeroShare = Double(41 * 19 - perUser.reduce(0, +)) / Double(41 * 19)
        #expect(zeroShare > 0.4 && zeroShare < 0.8)
    }

    @Test func twoStatesWithTheSameSeedStayIdenticalTickForTick() {
        var a = SimulationState(userCount: 41, habitCount: 19, seed: 99)
        var b = SimulationState(userCount: 41, habitCount: 19, seed: 99)
        for _ in 0..<500 {
            #expect(a.tick()! == b.tick()!)
        }
        #expect(a.counters == b.counters)
    }

    @Test func differentSeedsGiveDifferentRuns() {
        var a = SimulationState(userCount: 41, habitCount: 19, seed: 1)
        var b = SimulationState(userCount: 41, habitCount: 19, seed: 2)
        for _ in 0..<200 {
            a.tick()
            b.tick()
        }
        #expect(a.counters.counts != b.counters.counts)
    }

    @Test func eventsOnlyHitPairsWithARate() {
        var state = SimulationState(userCount: 10, habitCount: 5, seed: 5)
        for _ in 0..<1000 {
            let event = state.tick()!
            #expect(state.rates.rate(user: event.user, habit: event.habit) > 0)
            #expect(event.user < 10)
        }
        #expect(state.eventCount == 1000)
        #expect(state.counters.counts.reduce(0, +) == 1000)
    }

    @Test func recordingChangesExactlyOneCountAndTheGeneration() {
        var state = SimulationState(userCount: 3, habitCount: 2, seed: 1)
        let before = state.counters
        state.record(user: 2, habit: 1)
        let after = state.counters
        let changed = zip(before.counts, after.counts).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(changed.map(\.offset) == [1 * 4 + 2])
        #expect(after.generation == before.generation + 1)
        #expect(after.maxima == [0, 1])
    }

    @Test func leadersAreEveryUserTiedAtAPositiveMaximum() {
        var state = SimulationState(userCount: 3, habitCount: 2, seed: 1)
        for user in [0, 1, 0, 1, 2] { state.record(user: user, habit: 0) }
        let counters = state.counters
        #expect(counters.leads(user: 0, habit: 0))
        #expect(counters.leads(user: 1, habit: 0))
        #expect(!counters.leads(user: 2, habit: 0))
        #expect(!counters.leads(user: 0, habit: 1), "nobody leads a habit nobody logged")
    }

    @Test func resetZeroesCountsReplaysTheRunAndStillAdvancesTheGeneration() {
        var state = SimulationState(userCount: 41, habitCount: 19, seed: 8)
        let first = (0..<50).map { _ in state.tick()! }
        let generation = state.generation
        state.reset()
        #expect(state.counters.counts.allSatisfy { $0 == 0 })
        #expect(state.counters.maxima.allSatisfy { $0 == 0 })
        #expect(state.eventCount == 0 && state.tickCount == 0)
        #expect(state.generation > generation)
        let replay = (0..<50).map { _ in state.tick()! }
        #expect(replay.elementsEqual(first) { $0 == $1 })
    }
}
