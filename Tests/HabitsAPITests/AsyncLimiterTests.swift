import Synchronization
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
        let transport = SocketTransport(configuration: configuration)
        let client = HabitsClient(configuration: configuration, transport: transport)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await client.categories().count } }
            for try await count in group { #expect(count == 4) }
        }
        #expect(transport.connectionsOpened <= 2)
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
