import Testing
import Timing

@Suite struct BackoffTests {
    @Test func doublesFromTheInitialDelayUpToTheMaximum() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
        #expect(
            (0...6).map { backoff.delay(afterFailures: $0) } == [
                .zero, .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }

    @Test func forbidsAttemptsUntilTheDelayHasPassed() {
        let start = ContinuousClock.now
        var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
        #expect(backoff.mayAttempt(at: start))
        let next = backoff.failed(at: start)
        #expect(next == start + .milliseconds(100))
        #expect(!backoff.mayAttempt(at: start + .milliseconds(99)))
        #expect(backoff.mayAttempt(at: start + .milliseconds(100)))
        #expect(backoff.failed(at: next) == next + .milliseconds(200))
    }

    @Test func aSuccessStartsTheScheduleAgain() {
        let start = ContinuousClock.now
        var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
        for _ in 0..<5 { backoff.failed(at: start) }
        backoff.succeeded()
        #expect(backoff.failures == 0)
        #expect(backoff.mayAttempt(at: start))
        #expect(backoff.failed(at: start) == start + .milliseconds(100))
    }

    @Test func aLongOutageNeverOverflowsTheDelay() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
        #expect(backoff.delay(afterFailures: 10_000) == .seconds(2))
    }
}
