import Glibc

/// Bytes waiting to be written to a socket, oldest first, without copying response bodies.
///
/// A response is queued as two chunks (head, body) and sent with one `sendmsg` of both, so a 20 KB page
/// costs one system call and no concatenation.
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    /// Bytes of the first chunk already sent.
    private var offset = 0

    /// Whether everything has been written.
    var isEmpty: Bool { chunks.isEmpty }

    /// Queues `bytes` after what is pending.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
    }

    /// Drops everything pending (the connection is closing).
    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
    }

    /// One `sendmsg` of up to the first two chunks; returns what `sendmsg` returned (check `errno` when < 0).
    /// MSG_NOSIGNAL makes a vanished client an EPIPE instead of a process-killing SIGPIPE.
    mutating func send(to fd: Int32) -> Int {
        guard !chunks.isEmpty else { return 0 }
        let offset = offset
        let written: Int =
            if chunks.count == 1 {
                chunks[0].withUnsafeBytes { first in
                    Self.sendmsg(fd, first.baseAddress! + offset, first.count - offset, nil, 0)
                }
            } else {
                chunks[0].withUnsafeBytes { first in
                    chunks[1].withUnsafeBytes { second in
                        Self.sendmsg(
                            fd, first.baseAddress! + offset, first.count - offset, second.baseAddress, second.count)
                    }
                }
            }
        if written > 0 { consume(written) }
        return written
    }

    /// `sendmsg` of one or two buffers (the second may be empty).
    static func sendmsg(
        _ fd: Int32, _ first: UnsafeRawPointer, _ firstCount: Int, _ second: UnsafeRawPointer?, _ secondCount: Int
    ) -> Int {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first), iov_len: firstCount),
            iovec(iov_base: second.map { UnsafeMutableRawPointer(mutating: $0) }, iov_len: secondCount)
        )
        return withUnsafeMutableBytes(of: &vectors) { raw in
            var message = msghdr()
            message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
            message.msg_iovlen = secondCount > 0 ? 2 : 1
            return Glibc.sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
        }
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        while remaining > 0, !chunks.isEmpty {
            let available = chunks[0].count - offset
            if remaining >= available {
                remaining -= available
                chunks.removeFirst()
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
    }
}
