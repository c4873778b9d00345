import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Logging

@Suite struct LogBufferTests {
    /// Reads from `fd` until `done` holds for everything read, or `timeout` milliseconds pass. Waits in short
    /// polls and returns as soon as it can: these tests run on the cooperative pool and must not hog it.
    func read(_ fd: Int32, timeout: Int, until done: (String) -> Bool) -> String {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(timeout)
        while !done(String(decoding: bytes, as: UTF8.self)) && ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 10) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func withPipe(_ body: (_ readEnd: Int32, _ writeEnd: Int32) throws -> Void) rethrows {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        try body(fds[0], fds[1])
    }

    /// Whatever `fd` holds now, without waiting (what a flush or a write that happened already put there).
    func readAvailable(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The delay is on the buffer's clock: until it has passed (by hand), nothing is written however long a loaded
    /// machine takes; once it has, the lines come whole and in order.
    @Test func linesWaitForTheDelayOfTheirClockThenArriveWholeAndInOrder() async {
        let clock = ManualClock()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let buffer = LogBuffer(fd: fds[1], delay: .milliseconds(20), clock: clock)
        buffer.append("one")
        buffer.append("two")
        await eventually("the write's timer asleep") { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(19))
        #expect(clock.sleeperCount == 1, "not due: the timer sleeps on")
        #expect(readAvailable(fds[0]) == "")
        clock.advance(by: .milliseconds(1))
        // 30 s is only a hang guard: the read returns as soon as both lines are there. It blocks, so on a thread of
        // its own: the write it waits for comes from the timer's task, which needs a thread of the cooperative pool.
        let readEnd = fds[0]
        let text = await onOwnThread { self.read(readEnd, timeout: 30_000) { $0 == "one\ntwo\n" } }
        #expect(text == "one\ntwo\n")
    }

    @Test func flushWritesEverythingAtOnce() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60))
            for index in 0..<100 { buffer.append("line \(index)") }
            buffer.flush()
            let expected = (0..<100).map { "line \($0)\n" }.joined()
            // flush() returns after the write, so the bytes are already in the pipe.
            #expect(read(readEnd, timeout: 30_000) { $0 == expected } == expected)
        }
    }

    @Test func aFullBufferIsWrittenWithoutWaitingForTheTimer() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60), flushBytes: 100)
            for index in 0..<20 { buffer.append("line \(index)") }
            let early = read(readEnd, timeout: 30_000) { $0.utf8.count >= 100 }
            #expect(early.hasPrefix("line 0\nline 1\n"))
            #expect(early.hasSuffix("\n"))
            buffer.flush()
            let rest = read(readEnd, timeout: 30_000) { (early + $0).split(separator: "\n").count == 20 }
            #expect((early + rest).split(separator: "\n").count == 20)
        }
    }

    /// Issue 12: a stalled destination (a pipe nobody reads) must never make `append` wait, since it runs on event
    /// loops. Lines past the bound are dropped, counted, and reported once the writer catches up.
    @Test func aStalledDestinationDropsAndCountsLinesInsteadOfBlocking() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let buffer = LogBuffer(fd: writeEnd, delay: .milliseconds(1), flushBytes: 1024)
        let line = String(repeating: "x", count: 100)
        // 10 MB against a 64 KiB pipe nobody reads: this returns only if `append` never waits for the writer.
        let appended = await onOwnThread {
            for _ in 0..<100_000 { buffer.append(line) }
            return true
        }
        #expect(appended)
        #expect(buffer.droppedLines > 0)
        // Now drain the pipe; the writer catches up and says how many lines it dropped.
        let drained = await onOwnThread { () -> String in
            var text = ""
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let deadline = ContinuousClock.now + .seconds(60)  // a hang guard only
            while !text.contains("log lines dropped: ") && ContinuousClock.now < deadline {
                var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = Glibc.read(readEnd, &chunk, chunk.count)
                guard count > 0 else { break }
                // Keep only the tail: the report comes after the lines that made it.
                text = String((text + String(decoding: chunk[0..<count], as: UTF8.self)).suffix(4096))
            }
            return text
        }
        #expect(drained.contains("log lines dropped: "))
        // The writer must be done with the pipe before the `defer` closes it: its later writes would land in whatever
        // the number is given to next (another suite's socket, whose answers then never came). So drain while the
        // rest is flushed; a timer firing after that finds nothing to write.
        let flushed = Atomic(false)
        async let flushing: Void = onOwnThread {
            buffer.flush()
            flushed.store(true, ordering: .releasing)
        }
        _ = await onOwnThread { read(readEnd, timeout: 60_000) { _ in flushed.load(ordering: .acquiring) } }
        await flushing
    }
}
