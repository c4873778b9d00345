import Foundation
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct NewBrowserLimiterTests {
    @Test func thirtyNewBrowsersAMinuteThen429WithRetryAfterUntilATokenRefills() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, clock: clock)
        for _ in 0..<30 { #expect(limiter.admit("192.0.2.1") == .allowed) }
        // One token comes back every 2 s at 30 a minute.
        #expect(limiter.admit("192.0.2.1") == .limited(retryAfter: 2))
        clock.advance(by: .seconds(1.5))
        #expect(limiter.admit("192.0.2.1") == .limited(retryAfter: 1))
        clock.advance(by: .seconds(0.5))
        #expect(limiter.admit("192.0.2.1") == .allowed)
        #expect(limiter.admit("192.0.2.1") == .limited(retryAfter: 2))
    }

    @Test func aFullMinuteRefillsTheWholeBurstButNoMore() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, clock: clock)
        for _ in 0..<30 { _ = limiter.admit("a") }
        clock.advance(by: .seconds(3600))
        var allowed = 0
        while limiter.admit("a") == .allowed { allowed += 1 }
        #expect(allowed == 30)
    }

    @Test func oneClientsFloodLeavesAnotherClientsAllowanceWhole() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, clock: clock)
        for _ in 0..<1_000 { _ = limiter.admit("attacker") }
        #expect(limiter.admit("neighbour") == .allowed)
    }

    @Test func theRateIsConfigurable() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 2, clock: clock)
        #expect(limiter.admit("a") == .allowed)
        #expect(limiter.admit("a") == .allowed)
        #expect(limiter.admit("a") == .limited(retryAfter: 30))
    }

    /// Random source addresses cannot grow the table past its bound.
    @Test func theTableOfClientsIsBounded() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, maxClients: 100, clock: clock)
        for index in 0..<10_000 { _ = limiter.admit("10.0.\(index / 256).\(index % 256)") }
        #expect(limiter.trackedClients == 100)
    }

    /// A bucket that has refilled is no different from a new one, so idle clients are forgotten early.
    @Test func idleClientsAreForgotten() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, clock: clock)
        for index in 0..<50 { _ = limiter.admit("client\(index)") }
        clock.advance(by: .seconds(61))
        _ = limiter.admit("latecomer")
        #expect(limiter.trackedClients == 1)
    }

    @Test func aClockThatStepsBackGrantsNothingExtra() {
        let clock = ManualClock()
        let limiter = NewBrowserLimiter(perMinute: 30, clock: clock)
        for _ in 0..<30 { _ = limiter.admit("a") }
        clock.advance(by: .seconds(-3600))
        #expect(limiter.admit("a") != .allowed)
    }
}
