import Foundation
import Synchronization
import Testing

@testable import HabitsAPI

/// The cache in front of the real client and a real (loopback) server: what the upstream actually receives.
@Suite struct CacheOverClientTests {
    @Test func oneHundredConcurrentPageLoadsReachTheServerOnce() async throws {
        let server = try HabitsClientTests.fixtureServer()
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        let cache = CachedHabitsAPI(upstream: client)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await cache.combinedStatistics().habitStatistics.count }
            }
            for try await count in group { #expect(count == 4) }
        }
        #expect(server.received.filter { $0.target == "/combinedStats" }.count == 1)
        #expect(cache.metrics.upstreamCalls == [.combinedStats: 1])
        #expect(cache.metrics.coalesced + cache.metrics.hits == 99)
    }

    @Test func aFailingUpstreamGivesStaleDataAndTheMetricsSayWhy() async throws {
        let down = Mutex(false)
        let users = try Fixtures.bytes("users.json")
        // Up: answers; down: drops every connection without a byte, like a crashed process.
        let server = try LoopbackServer { _ in
            down.withLock { $0 } ? .bytes([], close: true) : LoopbackServer.json(users)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        let clock = ManualClock()
        let cache = CachedHabitsAPI(upstream: client, clock: clock)
        let good = try await cache.load(UsersRequest())
        down.withLock { $0 = true }
        clock.advance(by: .seconds(31))
        let stale = try await cache.load(UsersRequest())
        #expect(stale.isStale)
        #expect(stale.asOf == good.asOf)
        #expect(stale.value == good.value)
        #expect(cache.metrics.upstreamFailures[.users] == 1)
        #expect(cache.metrics.upstreamCalls == [.users: 2])
        #expect(cache.metrics.staleServed == 1)

        down.withLock { $0 = false }
        clock.advance(by: .seconds(0.3))
        let recovered = try await cache.load(UsersRequest())
        #expect(!recovered.isStale)
        #expect(recovered.asOf == clock.date)
    }

    /// Regression: a non-image answer was cached as the profile image for the whole image TTL (five minutes), so the
    /// image stayed broken long after the upstream recovered.
    @Test func aNonImageAnswerIsNotCachedAsTheImage() async throws {
        let broken = Mutex(true)
        let server = try LoopbackServer { _ in
            let (type, body) = broken.withLock { $0 } ? ("text/html", "<h1>oops</h1>") : ("image/png", "PNG!")
            return .bytes(
                Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8
                ),
                close: false)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        let clock = ManualClock()
        let cache = CachedHabitsAPI(upstream: client, clock: clock)
        await #expect(throws: HabitsAPIError.self) { try await cache.image(id: "user0") }
        broken.withLock { $0 = false }
        clock.advance(by: .seconds(0.3))
        let image = try await cache.image(id: "user0")
        #expect(image.contentType == "image/png")
        #expect(image.bytes == Array("PNG!".utf8))
    }
}
