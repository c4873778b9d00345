import Testing
import Timing

@Suite struct DurationMillisecondsTests {
    @Test func wholeMillisecondsRoundTowardZeroAndKeepTheFractionOfASecond() {
        #expect(Duration.milliseconds(300).wholeMilliseconds == 300)
        #expect(Duration.seconds(60).wholeMilliseconds == 60_000)
        #expect(Duration.microseconds(1_999).wholeMilliseconds == 1)
        #expect(Duration.microseconds(-1_999).wholeMilliseconds == -1)
    }

    @Test func aSubMillisecondRemainderRoundsUp() {
        #expect(Duration.nanoseconds(1).millisecondsRoundedUp == 1)
        #expect(Duration.microseconds(200).millisecondsRoundedUp == 1)
        #expect(Duration.milliseconds(5).millisecondsRoundedUp == 5, "a whole millisecond is not one more")
        #expect(Duration.milliseconds(5).millisecondsRoundedUp == 5)
        #expect((Duration.milliseconds(5) + .nanoseconds(1)).millisecondsRoundedUp == 6)
        #expect(Duration.zero.millisecondsRoundedUp == 0)
        #expect(Duration.seconds(Int64.max).millisecondsRoundedUp == Int64.max / 1_000_000 + 1, "saturated")
    }

    @Test func fractionalMillisecondsKeepTheFraction() {
        #expect(Duration.microseconds(1_250).fractionalMilliseconds == 1.25)
    }
}
