import Foundation
import Synchronization
import Testing

@testable import HabitsAPI

/// The coalescer in front of the real client and a real (loopback) server: what the upstream actually receives.
@Suite struct CoalescerOverClientTests {
    @Test func oneHundredConcurrentPageLoadsReachTheServerOnce() async throws {
        let joined = Mutex<RequestCoalescer?>(nil)
        let statistics = try Fixtures.bytes("combinedStats.json")
        // The answer waits until the other 99 callers have joined the call (a hang guard of 120 s), so the test does
        // not depend on how fast the machine starts 100 tasks.
        let server = try LoopbackServer { _ in
            let start = ContinuousClock.now
            while (joined.withLock { $0 })?.metrics.coalesced ?? 0 < 99, ContinuousClock.now - start < .seconds(120) {
                usleep(1000)
            }
            return LoopbackServer.json(statistics)
        }
        defer { server.stop() }
        let (client, _) = HabitsClientTests.client(.socket, port: server.port)
        let cache = RequestCoalescer(upstream: client)
        joined.withLock { $0 = cache }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await cache.combinedStatistics().habitStatistics.count }
            }
            for try await count in group { #expect(count == 4) }
        }
        #expect(server.received.filter { $0.target == "/combinedStats" }.count == 1)
        #expect(cache.metrics.upstreamCalls == [.combinedStats: 1])
        #expect(cache.metrics.coalesced == 99)
    }

    /// Regression: a non-image answer was cached as the profile image for the whole image TTL (five minutes), so the
    /// image stayed broken long after the upstream recovered. Nothing is kept now; the next call asks again.
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
        let cache = RequestCoalescer(upstream: client)
        await #expect(throws: HabitsAPIError.self) { try await cache.image(id: "user0") }
        broken.withLock { $0 = false }
        let image = try await cache.image(id: "user0")
        #expect(image.contentType == "image/png")
        #expect(image.bytes == Array("PNG!".utf8))
    }
}
