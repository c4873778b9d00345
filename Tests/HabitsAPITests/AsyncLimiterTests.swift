import Synchronization
import TestSupport
import Testing

@testable import HabitsAPI

@Suite struct AsyncLimiterTests {
    @Test func admitsAtMostTheLimitAtOnce() async {
        let limiter = AsyncLimiter(limit: 3)
        let inside = Occupancy()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await limiter.withPlace {
                        inside.enter()
                        await Task.yield()
                        inside.leave()
                    }
                }
            }
        }
        #expect((1...3).contains(inside.most))
        #expect(inside.now == 0)
    }

    @Test func socketCallsBeyondTheLimitWaitTheirTurn() async throws {
        let server = try HabitsClientTests.fixtureServer()
        defer { server.stop() }
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: server.port)
        configuration.maxConcurrentCalls = 2
        // The total timeout counts the wait for a place; this test is about the limit, not about timeouts.
        configuration.totalTimeout = .seconds(60)
        let clock = ManualClock()  // never moves: no pooled connection retires during a slow run
        let transport = SocketTransport(configuration: configuration, clock: clock)
        let client = HabitsClient(configuration: configuration, transport: transport)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await client.categories().count } }
            for try await count in group { #expect(count == 4) }
        }
        #expect(transport.connectionsOpened <= 2)
    }

    @Test func waiterGivesUpAtItsDeadlineAndLeaksNoPlace() async {
        let limiter = AsyncLimiter(limit: 1)
        #expect(await limiter.acquire(until: nil))
        let start = ContinuousClock.now
        #expect(await limiter.acquire(until: Socket.now() + .milliseconds(100)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(90))
        limiter.release()
        #expect(await limiter.acquire(until: Socket.now() + .milliseconds(100)))
    }

    @Test func aPlaceFreedBeforeTheDeadlineIsTaken() async throws {
        let limiter = AsyncLimiter(limit: 1)
        #expect(await limiter.acquire(until: nil))
        let admitted = Mutex(false)
        let waiter = Task {
            let got = await limiter.acquire(until: Socket.now() + .seconds(60))
            admitted.withLock { $0 = got }
            return got
        }
        // Queued (so the check below is about the limiter, not about a task that has not started), and given every
        // chance to get in while the place is held: it must not.
        for _ in 0..<100_000 where limiter.waiting == 0 { await Task.yield() }
        #expect(limiter.waiting == 1)
        for _ in 0..<100 { await Task.yield() }
        #expect(!admitted.withLock { $0 }, "the one place is still held")
        limiter.release()
        #expect(await waiter.value)
        #expect(limiter.waiting == 0)
    }

    /// Regression: the total timeout started only once a call had a place, so calls queued behind slow ones waited
    /// many timeouts (Home took 19.7 s behind 64 uncached image requests to a hanging upstream, instead of ~3 s).
    /// Each queued call now gives up when its own deadline passes, without ever connecting; before, every one of
    /// them eventually got the place, connected, and waited a full timeout of its own.
    @Test func callsQueuedBehindASlowOneGiveUpAtTheirOwnDeadline() async throws {
        let server = try LoopbackServer { _ in .silence }
        defer { server.stop() }
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: server.port)
        configuration.maxConcurrentCalls = 1
        configuration.totalTimeout = .milliseconds(250)
        let client = HabitsClient(configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    await #expect(throws: HabitsAPIError.self) { try await client.image(id: "user\(index)") }
                }
            }
        }
        // Serially, eight calls would connect eight times (and take 2 s); the tail must not connect at all.
        #expect(server.connectionCount < 8)
    }
}

/// Counts how many holders are inside at once, and the most ever.
private final class Occupancy: Sendable {
    private let state = Mutex((now: 0, most: 0))
    var now: Int { state.withLock { $0.now } }
    var most: Int { state.withLock { $0.most } }
    func enter() {
        state.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
}
