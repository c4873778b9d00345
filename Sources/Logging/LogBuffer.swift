import Dispatch
import Glibc
import Synchronization
import Timing

/// Collects log lines and writes them to a file descriptor in batches, from its own serial queue.
///
/// One `write(2)` per line cost more than a whole request at benchmark rates (one access-log line per
/// request). Lines are still whole and in order; they reach the descriptor at most `delay` after they were
/// logged, or sooner once `flushBytes` have piled up. `flush()` writes everything now; the process-wide
/// stderr buffer also flushes at `exit()`, and `Server.shutdown()` flushes it. A crash (a trap) can lose
/// the last `delay` of lines.
///
/// `append` never waits: it runs on event-loop threads, and a stalled stderr (a full pipe nobody reads) must not
/// stall every connection of the loop (issue 12). Past `16 × flushBytes` of unwritten output new lines are
/// dropped and counted instead, and the writer reports the count in a line of its own once it catches up.
///
/// With `maxBytesPerSecond`, no more than that is taken in any second of the monotonic clock (the injected
/// `TimeSource`, which also times the delayed write), whatever the load
/// (issue 23: a poll flood wrote 174 MB in 30 s, a disk-filling attack); lines past it are dropped and counted too,
/// and reported in one line when the next second begins. Standard error's bound is 32 KiB a second (about 1.9 MiB a
/// minute, 2.7 GB a day at the very worst). A line appended with a `source` (the client a request's line is about)
/// counts against that source's share of the second too (`LogAllowance`), so one client's flood cannot push out
/// everyone else's lines.
public final class LogBuffer: Sendable {
    /// The buffer behind `Logger`'s default sink: standard error, flushed at `exit()`.
    public static let standardError: LogBuffer = {
        let buffer = LogBuffer(fd: 2, maxBytesPerSecond: 32 * 1024)
        atexit { LogBuffer.standardError.flush() }
        return buffer
    }()

    private struct State {
        var bytes: [UInt8] = []
        /// A timed write is pending: it will take whatever is buffered when it runs.
        var timerQueued = false
        /// A write was queued because `flushBytes` piled up.
        var sizeWriteQueued = false
        /// Lines dropped since the last report because the buffer was full.
        var dropped = 0
        /// Lines dropped since the buffer was made.
        var droppedTotal = 0
        /// The second (since `origin`) the byte bound is counting, and how its bytes are shared.
        var allowance: LogAllowance?
        /// Lines dropped over the byte bound since the last report.
        var overRate = 0
    }

    /// Why `writeBuffered` runs.
    private enum Trigger {
        case timer, size, flush
    }

    private let fd: Int32
    private let delay: Duration
    private let flushBytes: Int
    private let maxBytesPerSecond: Int?
    private let clock: any TimeSource
    private let origin: ContinuousClock.Instant
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "log.writer")

    /// A buffer writing to `fd`: lines wait at most `delay`, a write starts early once `flushBytes` pile up, and at
    /// most `maxBytesPerSecond` are taken in a second (nil: no bound), seconds and delays on `clock`.
    public init(
        fd: Int32, delay: Duration = .milliseconds(20), flushBytes: Int = 32 * 1024, maxBytesPerSecond: Int? = nil,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.clock = clock
        origin = clock.now
        self.fd = fd
        self.delay = delay
        self.flushBytes = flushBytes
        self.maxBytesPerSecond = maxBytesPerSecond
        state = Mutex(State(allowance: maxBytesPerSecond.map { LogAllowance(bytesPerSecond: $0) }))
    }

    /// Buffers `line` and a newline; `source` names the client the line is about (nil: the server's own line).
    public func append(_ line: String, source: String? = nil) {
        // Past this much unwritten output the line is dropped and counted: memory stays bounded and the caller,
        // often an event loop, never waits on the writer.
        let hardLimit = 16 * flushBytes
        var line = line
        let second = maxBytesPerSecond == nil ? 0 : (clock.now - origin).components.seconds
        let (startTimer, writeNow) = line.withUTF8 { utf8 in
            state.withLock { state -> (Bool, Bool) in
                guard state.bytes.count + utf8.count < hardLimit else {
                    state.dropped += 1
                    state.droppedTotal += 1
                    return (false, false)
                }
                if var allowance = state.allowance {
                    defer { state.allowance = allowance }
                    if allowance.enter(second: second), state.overRate > 0 {
                        // Said as the next second begins, within its bound, so the gap is visible in the log.
                        let report =
                            "log lines dropped: \(state.overRate) (over the log's bound of "
                            + "\(allowance.bytesPerSecond) bytes a second)\n"
                        state.bytes.append(contentsOf: report.utf8)
                        _ = allowance.take(report.utf8.count, source: nil)
                        state.overRate = 0
                    }
                    guard allowance.take(utf8.count + 1, source: source) else {
                        state.overRate += 1
                        state.droppedTotal += 1
                        return (false, false)
                    }
                }
                state.bytes.append(contentsOf: utf8)
                state.bytes.append(10)
                let count = state.bytes.count
                let startTimer = !state.timerQueued
                state.timerQueued = true
                let writeNow = count >= flushBytes && !state.sizeWriteQueued
                if writeNow { state.sizeWriteQueued = true }
                return (startTimer, writeNow)
            }
        }
        if startTimer {
            // The write itself stays on `queue`, so batches go out in the order they were taken.
            clock.after(clock.now + delay) { self.queue.async { self.writeBuffered(.timer) } }
        }
        if writeNow {
            queue.async { self.writeBuffered(.size) }
        }
    }

    /// Lines dropped so far because the destination could not keep up or over the byte bound (reported in the log
    /// too).
    public var droppedLines: Int { state.withLock { $0.droppedTotal } }

    /// Writes everything buffered so far before returning.
    public func flush() {
        queue.sync { writeBuffered(.flush) }
    }

    /// Runs on `queue` only, so batches are written in the order they were taken.
    private func writeBuffered(_ trigger: Trigger) {
        let bytes = state.withLock { state -> [UInt8] in
            switch trigger {
            case .timer: state.timerQueued = false
            case .size: state.sizeWriteQueued = false
            case .flush: break
            }
            defer {
                state.bytes = []
                state.dropped = 0
            }
            guard state.dropped > 0 else { return state.bytes }
            // Said once the writer catches up, so a reader of the log knows lines are missing and how many.
            let report = "log lines dropped: \(state.dropped) (the log destination was not keeping up)\n"
            return state.bytes + Array(report.utf8)
        }
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && errno == EAGAIN {
                    // A non-blocking stderr (inherited): wait until it drains rather than lose lines.
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, 100)
                } else {
                    return  // Nowhere to report a failing log destination.
                }
            }
        }
    }
}
