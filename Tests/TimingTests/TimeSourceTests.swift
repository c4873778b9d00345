import Synchronization
import TestSupport
import Testing
import Timing

/// The one timer mechanism on the manual clock: `after` fires once at its deadline and never when cancelled; `every`
/// fires once per interval, and intervals missed in one jump of the clock are one run, not a burst.
@Suite struct TimeSourceTests {
    @Test func afterRunsItsBodyOnceTheDeadlineComesAndNotBefore() async {
        let clock = ManualClock()
        let runs = Mutex(0)
        clock.after(clock.now + .seconds(10)) { runs.withLock { $0 += 1 } }
        await eventually("the timer asleep") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1, "not due: still asleep")
        #expect(runs.withLock { $0 } == 0)
        clock.advance(by: .seconds(1))
        await eventually("the timer's run") { runs.withLock { $0 } == 1 }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledAfterNeverRuns() async {
        let clock = ManualClock()
        let runs = Mutex(0)
        let timer = clock.after(clock.now + .seconds(10)) { runs.withLock { $0 += 1 } }
        await eventually("the timer asleep") { clock.sleeperCount == 1 }
        timer.cancel()
        await timer.value
        clock.advance(by: .seconds(20))
        #expect(runs.withLock { $0 } == 0)
    }

    @Test func everyRunsOncePerIntervalAndAJumpOverSeveralIsOneRun() async {
        let clock = ManualClock()
        let runs = Mutex(0)
        let timer = clock.every(.seconds(60)) { runs.withLock { $0 += 1 } }
        defer { timer.cancel() }
        for run in 1...3 {
            await eventually("asleep before run \(run)") { clock.sleeperCount == 1 }
            clock.advance(by: .seconds(59))
            #expect(runs.withLock { $0 } == run - 1, "not due yet")
            clock.advance(by: .seconds(1))
            await eventually("run \(run)") { runs.withLock { $0 } == run }
        }
        await eventually("asleep after three runs") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(600))
        await eventually("the run after the jump") { runs.withLock { $0 } == 4 }
        // The next deadline is a whole interval after the jump: nothing is due until then.
        await eventually("asleep after the jump") { clock.sleeperCount == 1 }
        #expect(runs.withLock { $0 } == 4)
        clock.advance(by: .seconds(59))
        #expect(runs.withLock { $0 } == 4)
        clock.advance(by: .seconds(1))
        await eventually("the first run after the jump's interval") { runs.withLock { $0 } == 5 }
    }

    @Test func aCancelledEveryStopsAndWakesItsSleep() async {
        let clock = ManualClock()
        let runs = Mutex(0)
        let timer = clock.every(.seconds(1)) { runs.withLock { $0 += 1 } }
        await eventually("asleep") { clock.sleeperCount == 1 }
        timer.cancel()
        await timer.value
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(5))
        #expect(runs.withLock { $0 } == 0)
    }
}
