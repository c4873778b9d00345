import Foundation
import TestSupport
import Testing

@testable import HabitsAPI

/// The coalescer in front of a fake upstream held at its gate: who shares a call, what is counted, what is kept.
@Suite struct RequestCoalescerTests {
    let fake: FakeHabitsAPI

    init() throws { fake = try .fixtures() }

    @Test func callersArrivingWhileACallIsInFlightShareItAndTheNextCallAsksAgain() async throws {
        fake.gate.close()
        let coalescer = RequestCoalescer(upstream: fake)
        let callers = (0..<10).map { _ in Task { try await coalescer.users().count } }
        await eventually { coalescer.metrics.coalesced == 9 }
        fake.gate.open()
        for caller in callers { #expect(try await caller.value > 0) }
        #expect(fake.calls[.users] == 1)
        _ = try await coalescer.users()
        #expect(fake.calls[.users] == 2, "nothing is kept once a call ends: the snapshot owns freshness")
        #expect(coalescer.metrics.upstreamCalls == [.users: 2])
    }

    @Test func differentRequestsAreNotJoined() async throws {
        fake.gate.close()
        let coalescer = RequestCoalescer(upstream: fake)
        let users = Task { try await coalescer.users() }
        let habits = Task { try await coalescer.habits() }
        await eventually { fake.calls.values.reduce(0, +) == 2 }
        fake.gate.open()
        _ = try await (users.value, habits.value)
        #expect(coalescer.metrics.coalesced == 0)
    }

    @Test func aFailureReachesEveryJoinedCallerAndIsNotRemembered() async throws {
        fake.gate.close()
        fake.fail(with: .transport("connection refused"))
        let coalescer = RequestCoalescer(upstream: fake)
        let callers = (0..<3).map { _ in Task { try await coalescer.combinedStatistics() } }
        await eventually { coalescer.metrics.coalesced == 2 }
        fake.gate.open()
        for caller in callers { await #expect(throws: HabitsAPIError.self) { try await caller.value } }
        #expect(coalescer.metrics.upstreamFailures == [.combinedStats: 1])
        fake.fail(with: nil)
        _ = try await coalescer.combinedStatistics()
        #expect(fake.calls[.combinedStats] == 2)
    }

    @Test func writesPassStraightThroughAndAreNeverJoined() async throws {
        fake.gate.close()
        let coalescer = RequestCoalescer(upstream: fake)
        let habit = LoggedHabit(userID: User.activeUserID, habitName: "Yoga", timestamp: Date(timeIntervalSince1970: 0))
        let logs = (0..<2).map { _ in Task { try await coalescer.log(habit) } }
        await eventually { fake.calls[.logHabit] == 2 }
        fake.gate.open()
        for log in logs { try await log.value }
        #expect(fake.logged.count == 2)
        #expect(coalescer.metrics.coalesced == 0 && coalescer.metrics.upstreamCalls == [.logHabit: 2])
    }
}
