import Testing

@testable import Dashboard

@Suite struct TrendTests {
    static let hour = Trend(samples: (0...360).map { $0 }, capacity: 361, spacing: 10)

    @Test func aFullHourGainsOverTheLastFiveMinutes() throws {
        let gain = try #require(Self.hour.gain())
        #expect(gain.amount == 30)
        #expect(gain.minutes == 5)
        #expect(Self.hour.gainText == "+30 in the last 5 min")
        #expect(Self.hour.label == "Count over the last hour: from 0 to 360")
    }

    @Test func aYoungerHistorySaysTheMinutesItCovers() {
        let trend = Trend(samples: [3, 4, 9], capacity: 361, spacing: 10)
        #expect(trend.gainText == "+6 in the last 1 min")
        #expect(trend.label == "Count over the last 1 min: from 3 to 9")
        let longer = Trend(samples: [3] + Array(repeating: nil, count: 14) + [12], capacity: 361, spacing: 10)
        #expect(longer.gainText == "+9 in the last 3 min")
    }

    @Test func comparesWithTheOldestKnownSampleInTheWindow() {
        var samples: [Int?] = (0...360).map { $0 }
        samples[330] = nil
        samples[331] = nil
        let trend = Trend(samples: samples, capacity: 361, spacing: 10)
        #expect(trend.gain()?.amount == 28)
        #expect(trend.gainText == "+28 in the last 5 min")
    }

    @Test func saysNoGainWithoutTwoSamplesOrWithAnUnknownLatest() {
        let single = Trend(samples: [7], capacity: 361, spacing: 10)
        #expect(single.gainText == nil)
        #expect(single.label == "Count so far: 7, no earlier point yet")
        #expect(Trend(samples: [7, nil], capacity: 361, spacing: 10).gainText == nil)
        #expect(Trend(samples: [], capacity: 361, spacing: 10).label == "No count recorded yet")
    }

    @Test func aFallingCountIsShownWithAMinusSign() {
        #expect(Trend(samples: [9, 7], capacity: 361, spacing: 10).gainText == "\u{2212}2 in the last 1 min")
    }
}
