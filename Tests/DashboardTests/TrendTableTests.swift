import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct TrendTableTests {
    @Test func aNameAbsentForAWholeRingIsDroppedAndItsRingReused() {
        var table = TrendTable(capacity: 3, maxSeries: 10)
        table.advance(["Yoga": 1, "Run": 2], steps: 1)
        table.advance(["Yoga": 2], steps: 1)
        #expect(table.samples("Run") == [2, nil])
        table.advance(["Yoga": 3], steps: 1)
        table.advance(["Yoga": 4], steps: 1)
        #expect(table.samples("Run") == nil)
        #expect(table.seriesCount == 1)
        table.advance(["Yoga": 5, "Swim": 1], steps: 1)
        #expect(table.samples("Swim") == [1])
        #expect(table.ringCount == 2)
    }

    @Test func keepsAtMostMaxSeriesWhateverTheUpstreamSends() {
        var table = TrendTable(capacity: 3, maxSeries: 5)
        for round in 0..<20 {
            table.advance(Dictionary(uniqueKeysWithValues: (0..<50).map { ("habit-\(round)-\($0)", $0) }), steps: 1)
            #expect(table.seriesCount <= 5)
            #expect(table.ringCount <= 5)
        }
    }

    @Test func aNewNameStartsWithJustItsLatestSample() {
        var table = TrendTable(capacity: 5, maxSeries: 10)
        table.advance(["Yoga": 1], steps: 1)
        table.advance(["Yoga": 2, "Run": 7], steps: 3)
        #expect(table.samples("Yoga") == [1, nil, nil, 2])
        #expect(table.samples("Run") == [7])
        #expect(table.values(age: 0) == ["Yoga": 2, "Run": 7])
        #expect(table.values(age: 3) == ["Yoga": 1])
    }
}
