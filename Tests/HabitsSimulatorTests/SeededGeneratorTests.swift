import Testing

@testable import HabitsSimulator

@Suite struct SeededGeneratorTests {
    @Test func theSameSeedGivesTheSameSequence() {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }

    @Test func differentSeedsGiveDifferentSequences() {
        var a = SeededGenerator(seed: 1)
        var b = SeededGenerator(seed: 2)
        #expect((0..<8).map { _ in a.next() } != (0..<8).map { _ in b.next() })
    }

    /// Pins the algorithm (values from an independent Python transcription of SplitMix64 + xoshiro256**):
    /// a change here would silently change every seeded demo and test.
    @Test func seedZeroGivesTheReferenceSequence() {
        var generator = SeededGenerator(seed: 0)
        #expect(
            (0..<3).map { _ in generator.next() } == [
                0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0,
            ])
    }

    @Test func unitValuesStayInZeroToOne() {
        var generator = SeededGenerator(seed: 7)
        let values = (0..<10_000).map { _ in generator.nextUnit() }
        #expect(values.allSatisfy { (0..<1).contains($0) })
        let mean = values.reduce(0, +) / Double(values.count)
        #expect(abs(mean - 0.5) < 0.02)
    }
}
