import Testing

@testable import HabitsAPI

@Suite struct IdleConnectionPoolTests {
    private let start = ContinuousClock.now

    @Test func handsBackTheMostRecentlyReturnedConnection() {
        var pool = IdleConnectionPool<Int>(capacity: 4, maxIdle: .seconds(4))
        _ = pool.put(1, at: start)
        _ = pool.put(2, at: start + .seconds(1))
        var discarded: [Int] = []
        let taken = pool.take(at: start + .seconds(2)) { discarded.append($0) }
        #expect(taken == 2)
        #expect(discarded.isEmpty)
        #expect(pool.count == 1)
    }

    /// Regression (issue 8): a taker read its clock, then another thread stamped a connection later than that
    /// reading. The unsigned `now - since` went below zero and trapped ("arithmetic overflow"), killing the
    /// dashboard under load. A connection stamped in the taker's future is simply fresh.
    @Test func aConnectionStampedAfterTheTakersClockReadingIsReusedWithoutTrapping() {
        var pool = IdleConnectionPool<Int>(capacity: 4, maxIdle: .seconds(4))
        _ = pool.put(7, at: start + .milliseconds(3))
        var discarded: [Int] = []
        let taken = pool.take(at: start) { discarded.append($0) }
        #expect(taken == 7)
        #expect(discarded.isEmpty)
    }

    @Test func discardsConnectionsIdleForMaxIdleOrLonger() {
        var pool = IdleConnectionPool<Int>(capacity: 4, maxIdle: .seconds(4))
        _ = pool.put(1, at: start)
        _ = pool.put(2, at: start + .seconds(1))
        var discarded: [Int] = []
        let taken = pool.take(at: start + .seconds(5)) { discarded.append($0) }
        #expect(taken == nil)
        #expect(discarded == [2, 1])
        #expect(pool.count == 0)
    }

    @Test func refusesAConnectionBeyondItsCapacity() {
        var pool = IdleConnectionPool<Int>(capacity: 1, maxIdle: .seconds(4))
        let first = pool.put(1, at: start)
        let second = pool.put(2, at: start)
        #expect(first && !second)
        let all = pool.removeAll()
        #expect(all == [1])
        #expect(pool.count == 0)
    }
}
