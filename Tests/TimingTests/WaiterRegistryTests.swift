import Synchronization
import TestSupport
import Testing
import Timing

/// A registry under its lock, as owners keep it.
final class Locked: Sendable {
    let registry = Mutex(WaiterRegistry<String, Int>())
    func withLock<T>(_ body: (inout WaiterRegistry<String, Int>) -> T) -> T { registry.withLock { body(&$0) } }
}

@Suite struct WaiterRegistryTests {
    /// Registers a waiter that returns what it is resumed with; returns its task and id once it is registered.
    static func waiter(_ registry: Locked, tag: String) async -> (Task<Int, Never>, UInt64) {
        let id = registry.withLock { $0.reserveID() }
        let task = Task<Int, Never> {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                registry.withLock { $0.add(id: id, tag, continuation) }
            }
        }
        while !registry.withLock({ $0.contains(id: id) }) { await Task.yield() }
        return (task, id)
    }

    @Test func theOldestWaiterIsFirstInLine() async {
        let registry = Locked()
        let (first, _) = await Self.waiter(registry, tag: "a")
        let (second, _) = await Self.waiter(registry, tag: "b")
        registry.withLock { $0.removeFirst() }?.resume(1)
        registry.withLock { $0.removeFirst() }?.resume(2)
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        #expect(registry.withLock { $0.isEmpty })
    }

    @Test func removingByTagTakesOnlyThoseAndRemovingByIdOnlyOnce() async {
        let registry = Locked()
        let (poll, pollID) = await Self.waiter(registry, tag: "poll")
        let (page, _) = await Self.waiter(registry, tag: "page")
        let polls = registry.withLock { $0.removeAll { $0 == "poll" } }
        #expect(polls.map(\.id) == [pollID])
        #expect(registry.withLock { $0.remove(id: pollID) } == nil, "gone already")
        for waiter in polls { waiter.resume(7) }
        #expect(await poll.value == 7)
        #expect(registry.withLock { $0.count } == 1)
        registry.withLock { $0.removeFirst() }?.resume(8)
        #expect(await page.value == 8)
    }

    /// Registers a waiter with a deadline on `clock` whose timer resumes it with -1; returns its task and id.
    static func waiter(_ registry: Locked, until deadline: ContinuousClock.Instant, on clock: ManualClock) async -> (
        Task<Int, Never>, UInt64
    ) {
        let id = registry.withLock { $0.reserveID() }
        let task = Task<Int, Never> {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                registry.withLock {
                    _ = $0.add(id: id, "t", continuation, until: deadline, on: clock) { id in
                        registry.withLock { $0.remove(id: id) }?.resume(-1)
                    }
                }
            }
        }
        while !registry.withLock({ $0.contains(id: id) }) { await Task.yield() }
        return (task, id)
    }

    @Test func aWaiterWithADeadlineIsEndedByItsTimerThen() async {
        let registry = Locked()
        let clock = ManualClock()
        let (task, _) = await Self.waiter(registry, until: clock.now + .seconds(5), on: clock)
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(4))
        await Task.yield()
        #expect(registry.withLock { $0.count } == 1, "not before its deadline")
        clock.advance(by: .seconds(1))
        #expect(await task.value == -1)
        #expect(registry.withLock { $0.isEmpty })
    }

    @Test func aWaiterResumedBeforeItsDeadlineIsNotEndedAgainByIt() async {
        let registry = Locked()
        let clock = ManualClock()
        let (task, id) = await Self.waiter(registry, until: clock.now + .seconds(5), on: clock)
        registry.withLock { $0.remove(id: id) }?.resume(3)
        #expect(await task.value == 3)
        let (later, _) = await Self.waiter(registry, until: clock.now + .seconds(6), on: clock)
        clock.advance(by: .seconds(5))
        await eventually("the first deadline's timer asleep again, for the second") { clock.sleeperCount == 1 }
        #expect(registry.withLock { $0.count } == 1, "the second still waits")
        clock.advance(by: .seconds(1))
        #expect(await later.value == -1)
    }

    /// Issue 46 point 2: a task per waiter's deadline cost about 2 KiB per parked poll.
    @Test func waitersWithDeadlinesShareOneTimerAndEachEndsAtItsOwn() async {
        let registry = Locked()
        let clock = ManualClock()
        var waiters: [(seconds: Int, task: Task<Int, Never>)] = []
        for seconds in [7, 3, 9, 5, 3, 8] {
            waiters.append((seconds, await Self.waiter(registry, until: clock.now + .seconds(seconds), on: clock).0))
        }
        await eventually("one timer asleep, for the earliest") { clock.sleeperCount == 1 }
        var elapsed = 0
        for step in [3, 2, 2, 1, 1] {
            clock.advance(by: .seconds(step))
            elapsed += step
            let due = waiters.filter { $0.seconds <= elapsed }
            for waiter in due { #expect(await waiter.task.value == -1) }
            #expect(registry.withLock { $0.count } == waiters.count - due.count, "\(elapsed) s: only those due ended")
            if due.count < waiters.count {
                await eventually("one timer asleep after \(elapsed) s") { clock.sleeperCount == 1 }
            }
        }
        #expect(registry.withLock { $0.isEmpty })
    }

    @Test func anEarlierDeadlineWakesTheTimerEarlier() async {
        let registry = Locked()
        let clock = ManualClock()
        let (late, _) = await Self.waiter(registry, until: clock.now + .seconds(10), on: clock)
        let (early, _) = await Self.waiter(registry, until: clock.now + .seconds(2), on: clock)
        clock.advance(by: .seconds(2))
        #expect(await early.value == -1)
        #expect(registry.withLock { $0.count } == 1)
        clock.advance(by: .seconds(8))
        #expect(await late.value == -1)
    }

    @Test func theDeadlinesOfWaitersResumedEarlyDoNotPileUp() async {
        let registry = Locked()
        let clock = ManualClock()
        let (staying, _) = await Self.waiter(registry, until: clock.now + .seconds(30), on: clock)
        for _ in 0..<500 {
            let (task, id) = await Self.waiter(registry, until: clock.now + .seconds(25), on: clock)
            registry.withLock { $0.remove(id: id) }?.resume(1)
            _ = await task.value
        }
        #expect(registry.withLock { $0.deadlineEntries } <= 2 + 64 + 1)
        clock.advance(by: .seconds(30))
        #expect(await staying.value == -1)
    }

    @Test func onceNobodyWaitsNoTimerSleeps() async {
        let registry = Locked()
        let clock = ManualClock()
        let (task, id) = await Self.waiter(registry, until: clock.now + .seconds(5), on: clock)
        await eventually("the timer asleep") { clock.sleeperCount == 1 }
        registry.withLock { $0.remove(id: id) }?.resume(2)
        #expect(await task.value == 2)
        await eventually("the timer stopped") { clock.sleeperCount == 0 }
        #expect(registry.withLock { $0.deadlineEntries } == 0)
    }
}
