import Testing
import Timing

@Suite struct DeadlineHeapTests {
    let start = MonotonicInstant.now

    func deadline(_ milliseconds: Int) -> MonotonicInstant { start + .milliseconds(milliseconds) }

    @Test func dueEntriesComeOutEarliestFirstAndLaterOnesStay() {
        var heap = DeadlineHeap<MonotonicInstant, Int>()
        for (index, milliseconds) in [50, 10, 40, 30, 20, 60, 10].enumerated() {
            heap.insert(index, at: deadline(milliseconds))
        }
        #expect(heap.earliest == deadline(10))
        var popped: [Int] = []
        while let due = heap.popDue(now: deadline(45)) {
            popped.append(due.payload)
        }
        // Entries 1 and 6 share 10 ms; either order is fine.
        #expect(Set(popped.prefix(2)) == [1, 6])
        #expect(Array(popped.dropFirst(2)) == [4, 3, 2])
        #expect(heap.count == 2)
        #expect(heap.earliest == deadline(50))
    }

    @Test func nothingIsDueBeforeItsDeadline() {
        var heap = DeadlineHeap<MonotonicInstant, Int>()
        heap.insert(0, at: deadline(100))
        #expect(heap.popDue(now: deadline(99)) == nil)
        #expect(heap.popDue(now: deadline(100))?.payload == 0)
        #expect(heap.isEmpty)
    }

    @Test func manyRandomDeadlinesComeOutSorted() {
        var heap = DeadlineHeap<MonotonicInstant, Int>()
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<500).map { _ in Int.random(in: 0..<10_000, using: &generator) }
        for (index, milliseconds) in deadlines.enumerated() { heap.insert(index, at: deadline(milliseconds)) }
        var previous = start
        var count = 0
        while let due = heap.popDue(now: deadline(10_000)) {
            #expect(due.deadline >= previous)
            previous = due.deadline
            count += 1
        }
        #expect(count == 500)
    }

    @Test func compactingDropsTheStaleEntriesAndKeepsTheRestInOrder() {
        var heap = DeadlineHeap<MonotonicInstant, Int>()
        var generator = SystemRandomNumberGenerator()
        for index in 0..<300 { heap.insert(index, at: deadline(Int.random(in: 0..<10_000, using: &generator))) }
        heap.compact { $0.isMultiple(of: 3) }
        #expect(heap.count == 100)
        var previous = start
        var kept: [Int] = []
        while let entry = heap.popFirst() {
            #expect(entry.deadline >= previous)
            previous = entry.deadline
            kept.append(entry.payload)
        }
        #expect(kept.sorted() == Array(stride(from: 0, to: 300, by: 3)))
    }
}
