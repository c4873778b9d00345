import Synchronization
import TestSupport
import Testing
import Timing

@Suite struct RetryLoopTests {
    /// The sessions a loop ran, by the clock's offset from the start at which each began.
    final class Sessions: Sendable {
        let starts = Mutex<[Duration]>([])
        func record(_ offset: Duration) -> Int {
            starts.withLock {
                $0.append(offset)
                return $0.count
            }
        }
        var count: Int { starts.withLock { $0.count } }
        var offsets: [Duration] { starts.withLock { $0 } }
    }

    struct Failure: Error {}

    /// Runs a loop on a manual clock, moved on while the loop pauses, until `count` sessions ran; `session` is told
    /// each one's number (from 1). Returns when each began, from the start.
    static func offsets(
        backoff: Backoff, pauseFirst: Bool = false, sessions count: Int,
        _ session: @escaping @Sendable (Int, () -> Void) throws -> RetryLoop.Next
    ) async -> [Duration] {
        let clock = ManualClock()
        let start = clock.now
        let sessions = Sessions()
        let loop = Task {
            await RetryLoop.run(backoff: backoff, clock: clock, pauseFirst: pauseFirst) { connected in
                try session(sessions.record(clock.now - start), connected)
            }
        }
        while sessions.count < count {
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(100)) }
            await Task.yield()
        }
        await loop.value
        return sessions.offsets
    }

    @Test func failuresArePausedAsTheBackoffSays() async {
        let offsets = await Self.offsets(
            backoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(400)), sessions: 5
        ) { number, _ in
            guard number == 5 else { throw Failure() }
            return .done
        }
        #expect(offsets == [0, 100, 300, 700, 1100].map { Duration.milliseconds($0) })
    }

    @Test func aSessionThatConnectedStartsTheBackoffOver() async {
        let offsets = await Self.offsets(
            backoff: Backoff(initial: .milliseconds(100), maximum: .seconds(1)), sessions: 4
        ) { number, connected in
            if number == 3 { connected() }
            guard number == 4 else { throw Failure() }
            return .done
        }
        // 100 ms, 200 ms, then (connected) 100 ms again.
        #expect(offsets == [0, 100, 300, 400].map { Duration.milliseconds($0) })
    }

    @Test func pauseFirstStartsWithAPause() async {
        let offsets = await Self.offsets(backoff: Backoff(initial: .milliseconds(200)), pauseFirst: true, sessions: 1) {
            _, _ in .done
        }
        #expect(offsets == [.milliseconds(200)])
    }
}

extension RetryLoopTests {
    /// A connection attempt across a partition hangs until its deadline: the next one must go out at once (its SYNs
    /// find the healed network), not a deadline plus a pause later.
    @Test func anAttemptThatHungUntilItsDeadlineIsFollowedAtOnce() async {
        let clock = ManualClock()
        let start = clock.now
        let sessions = Sessions()
        let loop = Task {
            await RetryLoop.run(backoff: Backoff(initial: .milliseconds(100), maximum: .seconds(1)), clock: clock) {
                _ in
                guard sessions.record(clock.now - start) < 4 else { return .done }
                await clock.sleep(until: clock.now + .seconds(2))  // the attempt's deadline passes
                throw Failure()
            }
        }
        while sessions.count < 4 {
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(100)) }
            await Task.yield()
        }
        await loop.value
        #expect(sessions.offsets == [0, 2000, 4000, 6000].map { Duration.milliseconds($0) })
    }
}
