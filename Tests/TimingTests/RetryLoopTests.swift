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

    /// Moves `clock` on to each sleeper's deadline until `sessions` ran `count`.
    static func drive(_ clock: ManualClock, until count: Int, _ sessions: Sessions) async {
        while sessions.count < count {
            if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(100)) }
            await Task.yield()
        }
    }

    @Test func failuresArePausedAsTheBackoffSays() async {
        let clock = ManualClock()
        let start = clock.now
        let sessions = Sessions()
        let loop = Task {
            await RetryLoop.run(
                backoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(400)), clock: clock
            ) { _ in
                if sessions.record(clock.now - start) == 5 { return .done }
                throw Failure()
            }
        }
        await Self.drive(clock, until: 5, sessions)
        await loop.value
        #expect(
            sessions.offsets == [
                .zero, .milliseconds(100), .milliseconds(300), .milliseconds(700), .milliseconds(1100),
            ])
    }

    @Test func aSessionThatConnectedStartsTheBackoffOver() async {
        let clock = ManualClock()
        let start = clock.now
        let sessions = Sessions()
        let loop = Task {
            await RetryLoop.run(backoff: Backoff(initial: .milliseconds(100), maximum: .seconds(1)), clock: clock) {
                connected in
                let number = sessions.record(clock.now - start)
                if number == 3 { connected() }
                if number == 4 { return .done }
                throw Failure()
            }
        }
        await Self.drive(clock, until: 4, sessions)
        await loop.value
        // 100 ms, 200 ms, then (connected) 100 ms again.
        #expect(sessions.offsets == [.zero, .milliseconds(100), .milliseconds(300), .milliseconds(400)])
    }

    @Test func pauseFirstStartsWithAPause() async {
        let clock = ManualClock()
        let start = clock.now
        let sessions = Sessions()
        let loop = Task {
            await RetryLoop.run(backoff: Backoff(initial: .milliseconds(200)), clock: clock, pauseFirst: true) { _ in
                _ = sessions.record(clock.now - start)
                return .done
            }
        }
        await Self.drive(clock, until: 1, sessions)
        await loop.value
        #expect(sessions.offsets == [.milliseconds(200)])
    }
}
