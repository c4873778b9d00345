import Testing
import Timing

@testable import HTTPServer

@Suite struct FlushBatchTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func itemsComeOutTogetherInTheOrderQueued() {
        var batch = FlushBatch<Int>()
        #expect(batch.isEmpty)
        for item in 1...3 { batch.add(item, now: start) }
        #expect(!batch.isEmpty)
        let taken = batch.take()
        #expect(taken == [1, 2, 3])
        #expect(batch.isEmpty)
        batch.recycle(taken)
        #expect(batch.isEmpty, "a recycled batch is not queued again")
    }

    /// A flush queues another (an answer given at once as a socket drains): it goes into the next batch.
    @Test func whatIsQueuedWhileABatchIsSentWaitsForTheNextBatch() {
        var batch = FlushBatch<Int>()
        batch.add(1, now: start)
        let first = batch.take()
        batch.add(2, now: start)
        batch.recycle(first)
        #expect(batch.take() == [2])
    }

    @Test func onlyTheFirstItemReadsTheClock() {
        var batch = FlushBatch<Int>()
        var reads = 0
        func now() -> MonotonicInstant {
            reads += 1
            return start
        }
        batch.add(1, now: now())
        batch.add(2, now: now())
        #expect(reads == 1)
        #expect(batch.firstQueued == start)
    }

    @Test func theBatchIsOverdueOnlyAfterTheBoundFromItsFirstItem() {
        var batch = FlushBatch<Int>()
        #expect(!batch.isOverdue(now: start + .seconds(1)), "nothing waits")
        batch.add(1, now: start)
        batch.add(2, now: start + .microseconds(400))
        #expect(!batch.isOverdue(now: start + .microseconds(500)))
        #expect(batch.isOverdue(now: start + .nanoseconds(500_001)))
        _ = batch.take()
        batch.add(3, now: start + .milliseconds(2))
        #expect(!batch.isOverdue(now: start + .milliseconds(2) + .microseconds(100)), "the bound starts again")
    }
}
