import Glibc
import Testing

@testable import Logging

/// The log's byte bound (issue 23): however fast lines come, a second takes at most `maxBytesPerSecond` of them.
extension LogBufferTests {
    @Test func linesOverTheByteBoundAreDroppedAndCounted() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60), maxBytesPerSecond: 100)
            for index in 0..<40 { buffer.append("line number \(index + 100)") }  // 20 bytes with the newline
            buffer.flush()
            let written = read(readEnd, timeout: 100) { _ in false }.split(separator: "\n")
            // 5 lines fit in a second; the 40 appends span at most two of them (a report line may start the second).
            #expect(written.count >= 5 && written.count <= 11, "\(written)")
            #expect(written.first == "line number 100")
            #expect(buffer.droppedLines >= 29)
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
