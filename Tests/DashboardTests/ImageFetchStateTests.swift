import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Image fetches under a hanging upstream (issue 23), decided with a fake clock.
@Suite struct ImageFetchStateTests {
    let start = ContinuousClock.now

    func t(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func concurrentRequestsForOneImageShareOneCall() {
        var state = ImageFetchState()
        #expect(state.request("user0", now: t(0)) == .fetch)
        #expect(state.request("user0", now: t(0.1)) == .join)
        #expect(state.request("user0", now: t(0.2)) == .join)
        #expect(state.request("user1", now: t(0.2)) == .fetch)
        #expect(state.waiting == 4)
        state.finished("user0", failed: false, now: t(1))
        #expect(state.waiting == 1)
        #expect(state.request("user0", now: t(1)) == .fetch)
    }

    @Test func aFailedImageFailsAtOnceUntilItsMemoryEnds() {
        var state = ImageFetchState(policy: .init(failureMemory: .seconds(30)))
        #expect(state.request("user0", now: t(0)) == .fetch)
        state.finished("user0", failed: true, now: t(3))
        #expect(state.request("user0", now: t(4)) == .failed(until: t(33)))
        #expect(state.request("user0", now: t(32.9)) == .failed(until: t(33)))
        #expect(state.waiting == 0)
        #expect(state.request("user0", now: t(33)) == .fetch)
        #expect(state.failures.isEmpty)
    }

    /// Beyond the bound a request is turned away at once, even one that would only have joined.
    @Test func atMostMaxWaitingRequestsWaitOnTheUpstream() {
        var state = ImageFetchState(policy: .init(maxWaiting: 3))
        #expect(state.request("a", now: t(0)) == .fetch)
        #expect(state.request("a", now: t(0)) == .join)
        #expect(state.request("b", now: t(0)) == .fetch)
        #expect(state.request("a", now: t(0)) == .overloaded)
        #expect(state.request("c", now: t(0)) == .overloaded)
        state.finished("b", failed: false, now: t(1))
        #expect(state.request("c", now: t(1)) == .fetch)
    }

    @Test func rememberedFailuresAreBoundedOldestFirst() {
        var state = ImageFetchState(policy: .init(maxFailures: 2))
        for (index, id) in ["a", "b", "c"].enumerated() {
            _ = state.request(id, now: t(Double(index)))
            state.finished(id, failed: true, now: t(Double(index)))
        }
        #expect(state.failures.keys.sorted() == ["b", "c"])
    }
}
