import Synchronization
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

    @Test func resumingCancelsTheWaitersTimer() async {
        let registry = Locked()
        let (task, id) = await Self.waiter(registry, tag: "t")
        let timer = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        #expect(registry.withLock { $0.setTimer(timer, for: id) })
        registry.withLock { $0.remove(id: id) }?.resume(3)
        #expect(await task.value == 3)
        #expect(timer.isCancelled)
        #expect(!registry.withLock { $0.setTimer(timer, for: id) }, "a timer for a waiter already gone is refused")
    }
}
