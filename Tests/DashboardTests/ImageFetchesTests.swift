import HabitsAPI
import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// `ImageFetches` carrying out its state (issue 23): shared calls, remembered failures, the waiting bound.
@Suite struct ImageFetchesTests {
    /// A fetch that counts its calls and hangs until `release` yields.
    final class HangingFetch: Sendable {
        let calls = Mutex(0)
        let release: AsyncStream<Void>
        let releaser: AsyncStream<Void>.Continuation

        init() { (release, releaser) = AsyncStream<Void>.makeStream() }

        func callAsFunction() async throws -> ImageFetches.Image {
            calls.withLock { $0 += 1 }
            for await _ in release { break }
            return ([1, 2, 3], "image/png")
        }
    }

    @Test func concurrentRequestsShareOneUpstreamCall() async throws {
        let fetches = ImageFetches(clock: ManualClock())
        let fetch = HangingFetch()
        let tasks = (0..<5).map { _ in Task { try await fetches.image(id: "user0") { try await fetch() } } }
        await eventually("five waiting") { fetches.counts.waiting == 5 }
        fetch.releaser.yield()
        for task in tasks { #expect(try await task.value.bytes == [1, 2, 3]) }
        #expect(fetch.calls.withLock { $0 } == 1)
        #expect(fetches.counts.waiting == 0)
    }

    @Test func aFailedImageIsNotAskedForAgainUntilItsMemoryEnds() async throws {
        let clock = ManualClock()
        let fetches = ImageFetches(policy: .init(failureMemory: .seconds(30)), clock: clock)
        let calls = Mutex(0)
        let failing: @Sendable () async throws -> ImageFetches.Image = {
            calls.withLock { $0 += 1 }
            throw HabitsAPIError.transport("timed out")
        }
        for _ in 0..<3 {
            await #expect(throws: HabitsAPIError.self) { try await fetches.image(id: "user0", fetch: failing) }
        }
        #expect(calls.withLock { $0 } == 1)
        #expect(fetches.counts.failures == 1)
        clock.advance(by: .seconds(30))
        await #expect(throws: HabitsAPIError.self) { try await fetches.image(id: "user0", fetch: failing) }
        #expect(calls.withLock { $0 } == 2)
    }

    /// Beyond the bound a request is answered at once: 503 with `Retry-After`, and no upstream call.
    @Test func aRequestBeyondTheWaitingBoundIsTurnedAwayAtOnce() async throws {
        let fetches = ImageFetches(policy: .init(maxWaiting: 1), clock: ManualClock())
        let fetch = HangingFetch()
        let hanging = Task { try await fetches.image(id: "user0") { try await fetch() } }
        await eventually("one waiting") { fetches.counts.waiting == 1 }
        let other = HangingFetch()
        do {
            _ = try await fetches.image(id: "user1") { try await other() }
            Issue.record("a second image was fetched past the bound")
        } catch let error as ImageFetches.Overloaded {
            #expect(error.status == .serviceUnavailable)
            #expect(error.responseHeaders.map(\.name) == ["Retry-After"])
        }
        #expect(other.calls.withLock { $0 } == 0)
        fetch.releaser.yield()
        _ = try await hanging.value
    }
}
