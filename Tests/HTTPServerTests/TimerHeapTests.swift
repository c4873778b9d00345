import Testing
import Timing

@testable import HTTPServer

@Suite struct TimerHeapTests {
    let start = MonotonicInstant.now

    func entry(_ milliseconds: Int, slot: Int) -> TimerHeap.Entry {
        TimerHeap.Entry(deadline: start + .milliseconds(milliseconds), slot: slot, generation: 0)
    }

    @Test func dueEntriesComeOutEarliestFirstAndLaterOnesStay() {
        var heap = TimerHeap()
        for (index, milliseconds) in [50, 10, 40, 30, 20, 60, 10].enumerated() {
            heap.insert(entry(milliseconds, slot: index))
        }
        #expect(heap.earliest == start + .milliseconds(10))
        var popped: [Int] = []
        while let due = heap.popDue(now: start + .milliseconds(45)) {
            popped.append(due.slot)
        }
        // Slots 1 and 6 share 10 ms; either order is fine.
        #expect(Set(popped.prefix(2)) == [1, 6])
        #expect(Array(popped.dropFirst(2)) == [4, 3, 2])
        #expect(heap.count == 2)
        #expect(heap.earliest == start + .milliseconds(50))
    }

    @Test func nothingIsDueBeforeItsDeadline() {
        var heap = TimerHeap()
        heap.insert(entry(100, slot: 0))
        #expect(heap.popDue(now: start + .milliseconds(99)) == nil)
        #expect(heap.popDue(now: start + .milliseconds(100))?.slot == 0)
        #expect(heap.isEmpty)
    }

    @Test func manyRandomDeadlinesComeOutSorted() {
        var heap = TimerHeap()
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<500).map { _ in Int.random(in: 0..<10_000, using: &generator) }
        for (index, milliseconds) in deadlines.enumerated() { heap.insert(entry(milliseconds, slot: index)) }
        var previous = start
        var count = 0
        while let due = heap.popDue(now: start + .seconds(10)) {
            #expect(due.deadline >= previous)
            previous = due.deadline
            count += 1
        }
        #expect(count == 500)
    }
}
