import Testing

@testable import Dashboard

@Suite struct TrendRingTests {
    @Test func neverHoldsMoreThanItsCapacityAndForgetsTheOldestFirst() {
        var ring = TrendRing(capacity: 4)
        for value in 1...10 {
            ring.append(Int32(value))
            #expect(ring.count <= 4)
            #expect(ring.storage.count == 4)
        }
        #expect(ring.samples == [7, 8, 9, 10])
        #expect(ring.value(age: 0) == 10)
        #expect(ring.value(age: 3) == 7)
        #expect(ring.value(age: 4) == nil)
    }

    @Test func aLaterValueInTheSameSlotReplacesTheNewest() {
        var ring = TrendRing(capacity: 3)
        ring.append(1)
        ring.append(2)
        ring.replaceLast(5)
        #expect(ring.samples == [1, 5])
    }

    @Test func unknownSlotsReadAsNilAndAreCappedAtOneRing() {
        var ring = TrendRing(capacity: 3)
        ring.append(4)
        ring.appendUnknown(1)
        #expect(ring.samples == [4, nil])
        #expect(ring.hasKnownSample)
        ring.appendUnknown(1_000_000)
        #expect(ring.samples == [nil, nil, nil])
        #expect(!ring.hasKnownSample)
    }

    @Test func countsAreClampedIntoWhatASampleHolds() {
        #expect(TrendRing.sample(-5) == 0)
        #expect(TrendRing.sample(Int.max) == Int32.max)
        #expect(TrendRing.sample(17) == 17)
    }
}
