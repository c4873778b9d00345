import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SparklineTests {
    @Test func scalesTheRangeOfTheSamplesToTheBoxInsideItsInset() {
        let line = Sparkline(samples: [0, 5, 10], capacity: 3)
        #expect(line.path == "M0 21L60 12L120 3")
        #expect(line.end == Sparkline.Point(x: 1200, y: 30))
    }

    @Test func drawsAFlatSeriesAcrossTheMiddleWithoutItsMiddlePoints() {
        let line = Sparkline(samples: [4, 4, 4, 4], capacity: 4)
        #expect(line.path == "M0 12L120 12")
    }

    @Test func drawsASinglePointAsADotAtTheRightEdge() {
        let line = Sparkline(samples: [7], capacity: 361)
        #expect(line.path == "M120 12h0")
        #expect(line.end == Sparkline.Point(x: 1200, y: 120))
    }

    @Test func leavesTheSlotsBeforeTheSeriesBeganBlank() {
        let line = Sparkline(samples: [1, 2], capacity: 5)
        #expect(line.path == "M90 21L120 3")
    }

    @Test func spansTheSeriesOwnSamplesButAtLeastFiveMinutes() {
        #expect(Sparkline(samples: [1, 2], capacity: 361).path == "M116 21L120 3")
        let tenMinutes = Sparkline(samples: Array(0...60), capacity: 361)
        #expect(tenMinutes.segments[0].first == Sparkline.Point(x: 0, y: 210))
        #expect(tenMinutes.segments[0].count == 61)
    }

    @Test func breaksTheLineWhereNothingWasRecorded() {
        let line = Sparkline(samples: [1, nil, 3, 4], capacity: 4)
        #expect(line.segments.count == 2)
        #expect(line.path == "M0 21h0M80 9L120 3")
    }

    @Test func drawsNothingWithoutAKnownSample() {
        let line = Sparkline(samples: [nil, nil], capacity: 5)
        #expect(line.path == "")
        #expect(line.end == nil)
    }

    @Test func clampsCountsAndKeepsOnlyTheLastCapacitySamples() {
        #expect(Sparkline(samples: [-5, Int.max], capacity: 2).path == "M0 21L120 3")
        #expect(Sparkline(samples: [1, 2, 3, 4], capacity: 2).path == "M0 21L120 3")
    }

    @Test func drawsAtMostAboutMaxPointsForAnHourOfSamples() {
        let line = Sparkline(samples: Array(0...360), capacity: 361)
        #expect(line.segments.count == 1)
        #expect(line.segments[0].count == 61)
        #expect(line.segments[0].first?.x == 0)
        #expect(line.segments[0].last == Sparkline.Point(x: 1200, y: 30))
        #expect(line.path.utf8.count < 800)
    }

    @Test func writesTenthsWithoutTrailingZeros() {
        #expect(Sparkline.decimal(125) == "12.5")
        #expect(Sparkline.decimal(120) == "12")
        #expect(Sparkline.decimal(0) == "0")
        #expect(Sparkline.decimal(-5) == "-0.5")
        #expect(Sparkline.scaled(1, of: 7, to: 1200) == 171)
        #expect(Sparkline.scaled(1, of: 0, to: 1200) == 1200)
    }
}
