import Glibc
import Testing

@testable import HTTPServer

@Suite struct LogBufferTests {
    /// Reads what is available on `fd` within `timeout`.
    func read(_ fd: Int32, timeout: Int32) -> String {
        var bytes: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, timeout) > 0 {
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

    @Test func linesWaitForTheDelayThenArriveWholeAndInOrder() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .milliseconds(300))
            buffer.append("one")
            buffer.append("two")
            #expect(read(readEnd, timeout: 50) == "")
            #expect(read(readEnd, timeout: 1000) == "one\ntwo\n")
        }
    }

    @Test func flushWritesEverythingAtOnce() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60))
            for index in 0..<100 { buffer.append("line \(index)") }
            buffer.flush()
            let lines = read(readEnd, timeout: 50).split(separator: "\n").map(String.init)
            #expect(lines == (0..<100).map { "line \($0)" })
        }
    }

    @Test func aFullBufferIsWrittenWithoutWaitingForTheTimer() {
        withPipe { readEnd, writeEnd in
            let buffer = LogBuffer(fd: writeEnd, delay: .seconds(60), flushBytes: 100)
            for index in 0..<20 { buffer.append("line \(index)") }
            let text = read(readEnd, timeout: 500)
            #expect(text.hasPrefix("line 0\nline 1\n"))
            #expect(text.hasSuffix("\n"))
            buffer.flush()
            #expect((text + read(readEnd, timeout: 50)).split(separator: "\n").count == 20)
        }
    }
}
