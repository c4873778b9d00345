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
        let flags = Int32(MSG_NOSIGNAL)
        let written = chunks[0].withUnsafeBytes { first in
            var vectors = (
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress! + offset),
                    iov_len: first.count - offset),
                iovec()
            )
            var count = 1
            let send = { (vectors: inout (iovec, iovec)) -> Int in
                withUnsafeMutableBytes(of: &vectors) { raw in
                    var message = msghdr()
                    message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
                    message.msg_iovlen = count
                    return sendmsg(fd, &message, flags)
                }
            }
            guard chunks.count > 1 else { return send(&vectors) }
            return chunks[1].withUnsafeBytes { second in
                vectors.1 = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress!), iov_len: second.count)
                count = 2
                return send(&vectors)
            }
        }
        if written > 0 { consume(written) }
        return written
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
