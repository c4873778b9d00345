import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The bound on requests of one kind waiting on the upstream at once (issue 23 point 3), as a pure value.
@Suite struct WaitingBoundTests {
    /// What `count` more requests asking to enter `bound` are told, in order.
    static func enter(_ count: Int, _ bound: inout WaitingBound) -> [Bool] {
        (0..<count).map { _ in bound.enter() }
    }

    @Test func requestsEnterUpToTheLimitThenAreTurnedAwayUntilOneLeaves() {
        var bound = WaitingBound(limit: 3)
        let first = Self.enter(4, &bound)
        #expect(first == [true, true, true, false], "a fourth is turned away at once")
        #expect(bound.count == 3, "a request turned away is not counted")
        bound.leave()
        let second = Self.enter(2, &bound)
        #expect(second == [true, false], "one left: one more may wait")
    }

    @Test func severalLeavingAtOnceFreeAsManyPlaces() {
        var bound = WaitingBound(limit: 4)
        _ = Self.enter(4, &bound)
        bound.leave(3)
        #expect(bound.count == 1)
        let again = Self.enter(4, &bound)
        #expect(again == [true, true, true, false])
    }
}
