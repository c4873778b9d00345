import Glibc
import TestSupport
import Testing

@testable import Logging

/// The log's byte bound (issue 23): however fast lines come, a second takes at most `maxBytesPerSecond` of them.
extension LogBufferTests {
    /// Seconds are the buffer's clock's, so the count is exact: 6 lines of 16 bytes fit in 100, the other 34 are
    /// dropped, and the next second starts with the report (67 bytes), which counts against that second's bound too.
    @Test func linesOverTheByteBoundAreDroppedCountedAndReportedWhenTheNextSecondBegins() {
        withPipe { readEnd, writeEnd in
            let clock = ManualClock()
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60), maxBytesPerSecond: 100, clock: clock)
            for index in 0..<40 { buffer.append("line number \(index + 100)") }  // 16 bytes with the newline
            buffer.flush()
            #expect(readAvailable(readEnd) == (100..<106).map { "line number \($0)\n" }.joined())
            #expect(buffer.droppedLines == 34)
            clock.advance(by: .seconds(1))
            for index in 200..<203 { buffer.append("line number \(index)") }  // 67 + 16 + 16 fit, the third not
            buffer.flush()
            #expect(
                readAvailable(readEnd)
                    == "log lines dropped: 34 (over the log's bound of 100 bytes a second)\n"
                    + "line number 200\nline number 201\n")
            #expect(buffer.droppedLines == 35)
        }
    }

    @Test func withoutABoundEveryLineIsTaken() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60))
            for index in 0..<40 { buffer.append("line number \(index + 100)") }
            buffer.flush()
            #expect(read(readEnd, timeout: 100) { _ in false }.split(separator: "\n").count == 40)
            #expect(buffer.droppedLines == 0)
        }
    }
}

/// Issue 48 point 6: the byte bound is shared by the client a line is about.
extension LogBufferTests {
    /// A bound of 800 bytes: a client's share is 100 bytes (6 lines of 15), so its 40-line flood leaves room for the
    /// other client's line and the server's own.
    @Test func oneClientsFloodDoesNotPushOutAnotherClientsLinesOrTheServers() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60), maxBytesPerSecond: 800, clock: ManualClock())
            for index in 0..<40 { buffer.append("flood line \(index + 100)", source: "192.0.2.1") }  // 15 bytes each
            buffer.append("other client 1", source: "192.0.2.2")
            buffer.append("server line 01")
            buffer.flush()
            let lines = readAvailable(readEnd).split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("flood") }.count == 6)
            #expect(lines.suffix(2) == ["other client 1", "server line 01"])
            #expect(buffer.droppedLines == 34)
        }
    }
}
