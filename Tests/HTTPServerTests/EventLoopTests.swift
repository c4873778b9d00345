import Glibc
import Synchronization
import Testing

@testable import HTTPServer

@Suite struct EventLoopTests {
    @Test func workFromOtherThreadsRunsOnTheLoopThreadInOrder() async {
        let loop = EventLoopGroup.shared.next()
        #expect(!loop.inLoop)
        let seen = Mutex<[Int]>([])
        let onLoop = Mutex(true)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                loop.execute {
                    if !loop.inLoop { onLoop.withLock { $0 = false } }
                    seen.withLock { $0.append(index) }
                    if index == 99 { done.resume() }
                }
            }
        }
        #expect(onLoop.withLock { $0 })
        #expect(seen.withLock { $0 } == Array(0..<100))
    }

    /// A task that prefers the loop starts on the loop thread and comes back to it after a suspension.
    @Test func tasksPreferringTheLoopRunAndResumeOnIt() async throws {
        let loop = EventLoopGroup.shared.next()
        let threads = try await Task(executorPreference: loop) { () throws -> (Bool, Bool) in
            let before = loop.inLoop
            try await Task.sleep(for: .milliseconds(10))
            return (before, loop.inLoop)
        }.value
        #expect(threads == (true, true))
    }

    /// The spinner is stopped by the very closure it must not starve, so the loop never spins longer than
    /// the property under test takes (a spinning loop would hog a core of this 2-core machine).
    @Test func aTaskThatKeepsYieldingDoesNotStarveOtherWork() async {
        let loop = EventLoopGroup.shared.next()
        let stop = StopFlag()
        let spinner = Task(executorPreference: loop) {
            while !stop.isSet { await Task.yield() }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute {
                stop.set()
                done.resume()
            }
        }
        await spinner.value
        #expect(stop.isSet)
    }
}

/// A flag two closures share.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
