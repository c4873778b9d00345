import Testing

@testable import HTTPServer

@Suite struct LoopTaskQueueTests {
    /// Runs one round as the loop does: takes the remote work, then runs what is local.
    private func round(_ queue: LoopTaskQueue<String>) -> [String] {
        queue.takeRemote()
        var ran: [String] = []
        queue.runLocal { ran.append($0) }
        return ran
    }

    @Test func manyWokenJobsAreSpreadOverRoundsInTheirOrder() {
        let queue = LoopTaskQueue<String>()
        let limit = LoopTaskQueue<String>.deferredPerRound
        for index in 0..<(limit * 2 + 3) { _ = queue.appendRemote("job \(index)", deferrable: true) }
        let first = round(queue)
        #expect(first == (0..<limit).map { "job \($0)" })
        #expect(queue.hasLocalWork, "the rest must not let the loop sleep")
        #expect(round(queue) == (limit..<(limit * 2)).map { "job \($0)" })
        #expect(round(queue) == ((limit * 2)..<(limit * 2 + 3)).map { "job \($0)" })
        #expect(!queue.hasLocalWork)
    }

    @Test func urgentWorkIsNotQueuedBehindDeferredJobs() {
        let queue = LoopTaskQueue<String>()
        let limit = LoopTaskQueue<String>.deferredPerRound
        for index in 0..<(limit * 3) { _ = queue.appendRemote("job \(index)", deferrable: true) }
        _ = round(queue)
        _ = queue.appendRemote("start a new connection")
        let second = round(queue)
        #expect(second.first == "start a new connection")
        #expect(second.count == limit + 1)
    }

    @Test func theLoopIsWokenOncePerBatchWhicheverLane() {
        let queue = LoopTaskQueue<String>()
        #expect(queue.appendRemote("job", deferrable: true))
        #expect(!queue.appendRemote("closure"))
        _ = round(queue)
        #expect(queue.appendRemote("closure"))
    }

    @Test func aLongBacklogKeepsItsOrderAcrossCompaction() {
        let queue = LoopTaskQueue<Int>()
        let total = 10_000
        for index in 0..<total { _ = queue.appendRemote(index, deferrable: true) }
        var ran: [Int] = []
        var rounds = 0
        while queue.hasLocalWork || rounds == 0 {
            queue.takeRemote()
            queue.runLocal { ran.append($0) }
            rounds += 1
            // More arrive meanwhile, as polls keep waking.
            if rounds == 50 { for index in total..<(total + 100) { _ = queue.appendRemote(index, deferrable: true) } }
        }
        #expect(ran == Array(0..<(total + 100)))
    }
}
