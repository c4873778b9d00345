import Postgres
import Testing
import Timing

@Suite struct PoolStateTests {
    private let now = ContinuousClock.now

    @Test func opensUpToItsSizeThenQueuesCallers() {
        var state = PoolState<Int>(size: 2)
        let decision1 = state.acquire(waiter: 1, now: now)
        #expect(isOpen(decision1))
        let decision2 = state.acquire(waiter: 2, now: now)
        #expect(isOpen(decision2))
        let decision3 = state.acquire(waiter: 3, now: now)
        #expect(isWait(decision3))
        #expect(state.waiting == [3])
    }

    @Test func reusesAConnectionGivenBack() {
        var state = PoolState<Int>(size: 2)
        _ = state.acquire(waiter: 1, now: now)
        state.opened()
        let handoffs = state.released(7, healthy: true, now: now)
        #expect(handoffs.isEmpty)
        guard case .use(let connection) = state.acquire(waiter: 2, now: now) else {
            Issue.record("expected the idle connection")
            return
        }
        #expect(connection == 7)
        #expect(state.placesTaken == 1)
    }

    @Test func handsAReleasedConnectionToTheOldestWaiter() {
        var state = PoolState<Int>(size: 1)
        _ = state.acquire(waiter: 1, now: now)
        _ = state.acquire(waiter: 2, now: now)
        _ = state.acquire(waiter: 3, now: now)
        let handoffs = state.released(7, healthy: true, now: now)
        #expect(handoffs.count == 1 && handoffs[0].0 == 2)
        #expect(state.waiting == [3])
    }

    @Test func offersABrokenConnectionsPlaceToTheOldestWaiter() {
        var state = PoolState<Int>(size: 1)
        _ = state.acquire(waiter: 1, now: now)
        _ = state.acquire(waiter: 2, now: now)
        let handoffs = state.released(7, healthy: false, now: now)
        #expect(handoffs.count == 1 && handoffs[0].0 == 2)
        if case .open = handoffs[0].1 {} else { Issue.record("expected an invitation to open") }
        #expect(state.placesTaken == 1)
    }

    @Test func answersUnavailableAtOnceWhileBackingOffWithNothingAlive() {
        var state = PoolState<Int>(size: 2, backoff: Backoff(initial: .seconds(1), maximum: .seconds(2)))
        _ = state.acquire(waiter: 1, now: now)
        let answered = state.openFailed(startedAt: now)
        #expect(answered.isEmpty)
        guard case .unavailable = state.acquire(waiter: 2, now: now + .milliseconds(500)) else {
            Issue.record("expected unavailable during the back-off")
            return
        }
        let decision4 = state.acquire(waiter: 3, now: now + .seconds(1))
        #expect(isOpen(decision4))
    }

    @Test func anOpeningThatHungUntilItsDeadlineLeavesNoPauseAfterIt() {
        var state = PoolState<Int>(size: 1, backoff: Backoff(initial: .seconds(1), maximum: .seconds(2)))
        _ = state.acquire(waiter: 1, now: now)
        _ = state.openFailed(startedAt: now)
        // The second attempt hangs 3 s (a partition drops its SYNs), then fails: its pause of 2 s passed meanwhile.
        _ = state.acquire(waiter: 2, now: now + .seconds(1))
        _ = state.openFailed(startedAt: now + .seconds(1))
        // Counted from the failure, the next would wait until 6 s.
        #expect(isOpen(state.acquire(waiter: 3, now: now + .seconds(4))), "the next attempt goes at once")
    }

    @Test func failsEveryWaiterWhenTheLastOpeningFails() {
        var state = PoolState<Int>(size: 1)
        _ = state.acquire(waiter: 1, now: now)
        _ = state.acquire(waiter: 2, now: now)
        _ = state.acquire(waiter: 3, now: now)
        let answered = state.openFailed(startedAt: now)
        #expect(answered.map(\.0) == [2, 3])
        #expect(state.waiting.isEmpty && state.placesTaken == 0)
    }

    @Test func aWaiterThatGaveUpIsHandedNothing() {
        var state = PoolState<Int>(size: 1)
        _ = state.acquire(waiter: 1, now: now)
        _ = state.acquire(waiter: 2, now: now)
        let first = state.gaveUp(2)
        let second = state.gaveUp(2)
        #expect(first && !second)
        let handoffs = state.released(7, healthy: true, now: now)
        #expect(handoffs.isEmpty)
        #expect(state.idle == [7])
    }

    private func isOpen(_ decision: PoolState<Int>.Acquire) -> Bool {
        if case .open = decision { return true }
        return false
    }

    private func isWait(_ decision: PoolState<Int>.Acquire) -> Bool {
        if case .wait = decision { return true }
        return false
    }
}
