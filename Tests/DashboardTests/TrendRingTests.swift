import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct TrendRingTests {
    @Test func neverHoldsMoreThanItsCapacityAndForgetsTheOldestFirst() {
        var ring = TrendRing(capacity: 4)
        for value in 1...10 {
            ring.append(Int32(value))
            #expect(ring.count <= 4)
            #expect(ring.storageBytes <= 4 * 4)
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

    /// Issue 23: a total that does not change costs one run however many slots pass, and a ring whose values change
    /// at every slot costs no more than dense samples.
    @Test func aRepeatedValueCostsOneRunAndNoRingCostsMoreThanDenseSamples() {
        var still = TrendRing(capacity: 361)
        for _ in 0..<1_000 { still.append(7) }
        #expect(still.storageBytes == 8)
        #expect(still.samples == Array(repeating: 7, count: 361))
        var busy = TrendRing(capacity: 361)
        for value in 0..<1_000 {
            busy.append(Int32(value))
            #expect(busy.storageBytes <= 361 * 4)
        }
        #expect(busy.samples == (639..<1_000).map { $0 })
    }

    /// The runs hold exactly what a plain array of the last `capacity` samples would, whatever is appended, replaced
    /// or skipped (a seeded sequence of every operation, with values that repeat, change and go unknown).
    @Test(arguments: [1, 2, 3, 5, 40])
    func holdsWhatAPlainArrayOfTheLastSamplesWould(capacity: Int) {
        var ring = TrendRing(capacity: capacity)
        var model: [Int32] = []
        var seed: UInt64 = 23
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % bound
        }
        for _ in 0..<3_000 {
            let value: Int32 = next(5) == 0 ? TrendRing.unknown : Int32(next(4))
            switch next(6) {
            case 0:
                ring.replaceLast(value)
                if model.isEmpty { model.append(value) } else { model[model.count - 1] = value }
            case 1:
                let slots = Int(next(4))
                ring.appendUnknown(slots)
                model += Array(repeating: TrendRing.unknown, count: min(slots, capacity))
            default:
                ring.append(value)
                model.append(value)
            }
            model = Array(model.suffix(capacity))
            #expect(ring.rawSamples == model)
            #expect(ring.count == model.count)
            #expect(ring.hasKnownSample == model.contains { $0 != TrendRing.unknown })
            for age in 0...capacity {
                let expected = age < model.count ? model[model.count - 1 - age] : nil
                #expect(ring.value(age: age) == expected.flatMap { $0 == TrendRing.unknown ? nil : Int($0) })
            }
            #expect(ring.storageBytes <= max(capacity * 4, 8))
        }
    }

    @Test func countsAreClampedIntoWhatASampleHolds() {
        #expect(TrendRing.sample(-5) == 0)
        #expect(TrendRing.sample(Int.max) == Int32.max)
        #expect(TrendRing.sample(17) == 17)
    }
}
