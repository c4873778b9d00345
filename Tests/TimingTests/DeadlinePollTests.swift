import Glibc
import Testing
import Timing

@Suite struct DeadlinePollTests {
    /// `poll` would return just before the deadline and spin on a zero timeout if a remainder were dropped.
    @Test func theTimeoutRoundsASubMillisecondRemainderUp() {
        #expect(DeadlinePoll.timeout(for: .microseconds(1)) == 1)
        #expect(DeadlinePoll.timeout(for: .microseconds(4_001)) == 5)
        #expect(DeadlinePoll.timeout(for: .milliseconds(4)) == 4, "an exact millisecond count waits no longer")
        #expect(DeadlinePoll.timeout(for: .seconds(1_000_000_000)) == Int32.max)
    }

    @Test func aDeadlineAlreadyPassedTimesOutWithoutWaiting() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let now = ContinuousClock.now
        #expect(DeadlinePoll.wait(fd: fds[0], events: Int16(POLLIN), until: now, now: { now }) == .timedOut)
    }

    @Test func aReadyDescriptorEndsTheWait() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        let now = ContinuousClock.now
        // A deadline far off: the hang guard, not the claim.
        let outcome = DeadlinePoll.wait(fd: fds[0], events: Int16(POLLIN), until: now + .seconds(60), now: { now })
        #expect(outcome == .ready)
    }
}
