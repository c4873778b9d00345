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
        var seconds: Seconds
    }

    /// The whole seconds since the summer started, found with one comparison while the second lasts: the `Duration`
    /// arithmetic of each line's second (128-bit multiplications) was a quarter of the summer's cost per request.
    /// They never go back: a line whose `now` is older than the second already started (another loop's round began
    /// later) counts in that second, so the summary does not end a second twice.
    private struct Seconds {
        let origin: MonotonicInstant
        private(set) var current: Int64 = 0
        private var end: MonotonicInstant

        init(origin: MonotonicInstant) {
            self.origin = origin
            end = origin + .seconds(1)
        }

        mutating func second(at now: MonotonicInstant) -> Int64 {
            if now < end { return current }
            current = now.nanoseconds(since: origin) / 1_000_000_000
            end = origin + .seconds(current + 1)
            return current
        }
    }

    private let state: Mutex<State>
    private let clock: any TimeSource

    /// A summer with nothing summed, its seconds and its timer on `clock`.
    public init(clock: any TimeSource = SystemTimeSource()) {
        self.clock = clock
        state = Mutex(State(seconds: Seconds(origin: MonotonicInstant(clock.now))))
    }

    /// Lines summed into a count so far (for `/metrics`).
    public var summedLines: Int { state.withLock { $0.summary.summedTotal } }

    /// Whether the line of `key`, answered at `now` on the summer's clock, is to be written; summary lines of a second
    /// that ended go to `logger` first. A connection passes its event loop's time of the round (the system's
    /// continuous clock, as the summer's is in a server), which saves a clock read per request.
    func shouldWrite(_ key: AccessLogSummary.Key, at now: MonotonicInstant, logger: Logger) -> Bool {
        let (decision, armTimer) = state.withLock { state in
            let decision = state.summary.record(key, second: state.seconds.second(at: now))
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
            let now = MonotonicInstant(clock.now)
            let (ended, again) = state.withLock { state in
                let ended = state.summary.flush(second: state.seconds.second(at: now))
                state.timerQueued = state.summary.hasPending
                return (ended, state.timerQueued)
            }
            Self.write(ended, to: logger)
            if again { flushLater(to: logger) }
        }
    }

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
