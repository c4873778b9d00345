import Foundation
import Testing

@testable import HabitsAPI

/// Regression (security review): the cache was bounded by entry count only, so a hostile upstream's image answers
/// (up to the client's 16 MB body limit each) could hold gigabytes.
extension CachedHabitsAPITests {
    /// The fake's image for `userN` (N < 10) is the 9 bytes "PNG:userN".
    private func imageCache(maxImageBytes: Int, budget: Int) -> CachedHabitsAPI {
        var policy = CachePolicy()
        policy.maxImageBytes = maxImageBytes
        policy.imageBudgetBytes = budget
        return CachedHabitsAPI(upstream: fake, policy: policy, clock: clock)
    }

    @Test func anImageOverThePerImageLimitIsAFailedImageAndNotCached() async throws {
        let cache = imageCache(maxImageBytes: 8, budget: 100)
        await #expect(throws: HabitsAPIError.self) { try await cache.image(id: "user0") }
        #expect(cache.metrics.imageBytes == 0)
        #expect(cache.metrics.upstreamFailures[.image] == 1)
        clock.advance(by: CachePolicy().failureTTL + .milliseconds(10))
        await #expect(throws: HabitsAPIError.self) { try await cache.image(id: "user0") }
        #expect(fake.calls[.image] == 2)
    }

    @Test func anImageAtThePerImageLimitIsCached() async throws {
        let cache = imageCache(maxImageBytes: 9, budget: 100)
        #expect(try await cache.image(id: "user0").bytes == Array("PNG:user0".utf8))
        _ = try await cache.image(id: "user0")
        #expect(fake.calls[.image] == 1)
        #expect(cache.metrics.imageBytes == 9)
    }

    @Test func imagesPastTheByteBudgetEvictTheLeastRecentlyUsed() async throws {
        let cache = imageCache(maxImageBytes: 100, budget: 27)
        for index in 0..<3 {
            clock.advance(by: .seconds(0.001))
            _ = try await cache.image(id: "user\(index)")
        }
        #expect(cache.metrics.imageBytes == 27)
        clock.advance(by: .seconds(0.001))
        _ = try await cache.image(id: "user0")  // now user1 is the least recently used
        clock.advance(by: .seconds(0.001))
        _ = try await cache.image(id: "user3")
        #expect(cache.metrics.imageBytes == 27)
        #expect(fake.calls[.image] == 4)
        _ = try await cache.image(id: "user0")
        _ = try await cache.image(id: "user2")
        _ = try await cache.image(id: "user3")
        #expect(fake.calls[.image] == 4)
        _ = try await cache.image(id: "user1")
        #expect(fake.calls[.image] == 5)
        #expect(cache.metrics.imageBytes == 27)
    }
}
