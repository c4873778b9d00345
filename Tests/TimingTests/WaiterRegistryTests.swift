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

    @Test func resumingCancelsTheWaitersTimer() async {
        let registry = Locked()
        let clock = ManualClock()
        let (task, id) = await Self.waiter(registry, until: clock.now + .seconds(5), on: clock)
        let waiter = registry.withLock { $0.remove(id: id) }
        waiter?.resume(3)
        #expect(await task.value == 3)
        #expect(waiter?.timer?.isCancelled == true)
    }
}
