import Glibc
import Testing

@testable import HTTPServer

@Suite struct OutputQueueTests {
    /// Partial writes (a full socket buffer) resume exactly where they stopped, across chunk boundaries.
    @Test func partialWritesDeliverEveryByteInOrder() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        Socket.setNonBlocking(fds[0])
        let head = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let tail = Array("next".utf8)
        var queue = OutputQueue()
        queue.append(head)
        queue.append(body)
        queue.append([])  // ignored
        queue.append(tail)

        var received: [UInt8] = []
        var blockedAtLeastOnce = false
        while !queue.isEmpty {
            let written = queue.send(to: fds[0])
            if written < 0 {
                #expect(errno == EAGAIN || errno == EWOULDBLOCK)
                blockedAtLeastOnce = true
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, 0) }
                received += buffer[..<count]
            }
        }
        shutdown(fds[0], Int32(SHUT_WR))
        while true {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        #expect(blockedAtLeastOnce)
        #expect(received == head + body + tail)
    }
}
