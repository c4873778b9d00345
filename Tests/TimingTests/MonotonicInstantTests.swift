import Testing
import Timing

/// The event loops' instants: the same times as the continuous clock's, to the nanosecond, with arithmetic that
/// saturates instead of trapping at the ends of `Int64`.
@Suite struct MonotonicInstantTests {
    @Test func convertedInstantsKeepTheContinuousClocksOrderAndDistances() {
        let start = ContinuousClock.now
        let later = start + .milliseconds(1500) + .nanoseconds(7)
        let (a, b) = (MonotonicInstant(start), MonotonicInstant(later))
        #expect(a < b)
        #expect(b - a == .milliseconds(1500) + .nanoseconds(7))
        #expect(a + .milliseconds(1500) + .nanoseconds(7) == b)
        #expect(MonotonicInstant(start - .seconds(3600)) == a - .seconds(3600))
    }

    @Test func nowIsTheContinuousClocksNow() {
        let before = MonotonicInstant(ContinuousClock.now)
        let now = MonotonicInstant.now
        let after = MonotonicInstant(ContinuousClock.now)
        #expect(before <= now && now <= after)
    }

    @Test func durationsBecomeWholeNanosecondsRoundedTowardZero() {
        #expect(MonotonicInstant.nanoseconds(of: .seconds(2) + .nanoseconds(3)) == 2_000_000_003)
        #expect(MonotonicInstant.nanoseconds(of: .nanoseconds(-1_500_000_001)) == -1_500_000_001)
        #expect(MonotonicInstant.nanoseconds(of: Duration(secondsComponent: 0, attosecondsComponent: 999_999_999)) == 0)
        #expect(MonotonicInstant.nanoseconds(of: .seconds(Int64.max)) == .max)
        #expect(MonotonicInstant.nanoseconds(of: .seconds(Int64.min)) == .min)
    }

    @Test func aDeadlineFarOffSaturatesInsteadOfWrappingIntoThePast() {
        let now = MonotonicInstant(nanoseconds: 1_000)
        #expect(now + .seconds(Int64.max) == MonotonicInstant(nanoseconds: .max))
        #expect(now + .seconds(Int64.max) > now)
        #expect(MonotonicInstant(nanoseconds: .min + 5) - .seconds(1) == MonotonicInstant(nanoseconds: .min))
    }

    @Test func theNanosecondsBetweenTwoInstantsAreSignedAndSaturate() {
        let start = MonotonicInstant(nanoseconds: 1_000)
        #expect(MonotonicInstant(nanoseconds: 3_500).nanoseconds(since: start) == 2_500)
        #expect(start.nanoseconds(since: MonotonicInstant(nanoseconds: 3_500)) == -2_500)
        #expect(MonotonicInstant(nanoseconds: .max).nanoseconds(since: MonotonicInstant(nanoseconds: -1)) == .max)
        #expect(MonotonicInstant(nanoseconds: .min).nanoseconds(since: MonotonicInstant(nanoseconds: 1)) == .min)
    }
}
