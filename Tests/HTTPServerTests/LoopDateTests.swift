import Glibc
import Synchronization
import Testing
import Timing

@testable import HTTPServer

@Suite struct LoopDateTests {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A wall clock that stands where the test puts it and counts its reads.
    final class Wall: Sendable {
        let reading = Mutex((seconds: 784_111_777, nanoseconds: 600_000_000, reads: 0))
        func read() -> timespec {
            reading.withLock { reading in
                reading.reads += 1
                return timespec(tv_sec: reading.seconds, tv_nsec: reading.nanoseconds)
            }
        }
        var reads: Int { reading.withLock { $0.reads } }
        func set(seconds: Int, nanoseconds: Int) { reading.withLock { $0 = (seconds, nanoseconds, $0.reads) } }
    }

    func date(_ wall: Wall) -> LoopDate {
        LoopDate(now: start, readWallClock: wall.read) {
            DateCache.Texts(httpDate: DateCache.format($0), timestamp: DateCache.timestamp($0))
        }
    }

    @Test func theTextsAreThoseOfTheWallClocksSecond() {
        let loopDate = date(Wall())
        #expect(String(decoding: loopDate.texts.httpDate, as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(loopDate.texts.timestamp == "1994-11-06T08:49:37Z")
    }

    @Test func roundsWithinTheSecondDoNotReadTheWallClock() {
        let wall = Wall()
        var loopDate = date(wall)
        #expect(loopDate.nextRefresh == start + .milliseconds(400), "when the wall clock's next second begins")
        for microseconds in stride(from: 0, to: 400_000, by: 1_000) {
            loopDate.update(now: start + .microseconds(microseconds))
        }
        #expect(wall.reads == 1)
    }

    @Test func theNextSecondsRoundRefreshesTheTexts() {
        let wall = Wall()
        var loopDate = date(wall)
        wall.set(seconds: 784_111_778, nanoseconds: 100_000)
        loopDate.update(now: start + .milliseconds(400) + .microseconds(100))
        #expect(wall.reads == 2)
        #expect(loopDate.texts.timestamp == "1994-11-06T08:49:38Z")
        #expect(loopDate.nextRefresh == start + .milliseconds(400) + .microseconds(100) + .nanoseconds(999_900_000))
    }

    /// The clocks drift (or the wall clock was set back): a refresh a little early finds the same second and looks
    /// again when the wall clock says it ends.
    @Test func anEarlyRefreshKeepsTheSecondAndLooksAgainSoon() {
        let wall = Wall()
        var loopDate = date(wall)
        wall.set(seconds: 784_111_777, nanoseconds: 999_990_000)
        loopDate.update(now: start + .milliseconds(400))
        #expect(loopDate.texts.timestamp == "1994-11-06T08:49:37Z")
        #expect(loopDate.nextRefresh == start + .milliseconds(400) + .microseconds(10))
    }
}
