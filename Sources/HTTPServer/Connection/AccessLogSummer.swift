import Logging
import Synchronization
import Timing

/// Carries out `AccessLogSummary` for one server's access log: asked before each line, it writes the summary lines
/// of each second that ended, also when no later line comes (a timer on the injected clock). Event-loop threads share
/// it under its lock.
public final class AccessLogSummer: Sendable {
    private struct State {
        var summary = AccessLogSummary()
        var timerQueued = false
    }

    private let state = Mutex(State())
    private let clock: any TimeSource
    private let origin: ContinuousClock.Instant

    /// A summer with nothing summed, its seconds and its timer on `clock`.
    public init(clock: any TimeSource = SystemTimeSource()) {
        self.clock = clock
        origin = clock.now
    }

    /// Lines summed into a count so far (for `/metrics`).
    public var summedLines: Int { state.withLock { $0.summary.summedTotal } }

    /// Whether the line of `key` is to be written; summary lines of a second that ended go to `logger` first.
    func shouldWrite(_ key: AccessLogSummary.Key, logger: Logger) -> Bool {
        let second = currentSecond()
        let (decision, armTimer) = state.withLock { state in
            let decision = state.summary.record(key, second: second)
            let armTimer = !decision.write && !state.timerQueued
            if armTimer { state.timerQueued = true }
            return (decision, armTimer)
        }
        Self.write(decision.ended, to: logger)
        if armTimer { flushLater(to: logger) }
        return decision.write
    }

    /// So the counts of a second are written even if nothing is logged after it: a timer a second on, again while
    /// counts are pending (a line of the next second may have come before it).
    private func flushLater(to logger: Logger) {
        clock.after(clock.now + .milliseconds(1100)) { [self] in
            let (ended, again) = state.withLock { state in
                let ended = state.summary.flush(second: currentSecond())
                state.timerQueued = state.summary.hasPending
                return (ended, state.timerQueued)
            }
            Self.write(ended, to: logger)
            if again { flushLater(to: logger) }
        }
    }

    private func currentSecond() -> Int64 { (clock.now - origin).components.seconds }

    private static func write(_ summed: [AccessLogSummary.Summed], to logger: Logger) {
        for line in summed {
            // At the access log's own level: a summary of lines nobody asked for is no more wanted than they are.
            logger.log(
                logger.accessLogLevel, "request repeated",
                [
                    "http.method": line.key.method, "http.path": line.key.path, "http.status": "\(line.key.status)",
                    "http.bytes": "\(line.key.bytes)", "repeated": "\(line.count)",
                ])
        }
    }
}
