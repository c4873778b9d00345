import Synchronization
import Timing

/// Writes the latest of a stream of values off the request path, at a bounded rate (issue 13, reused by issue 22's
/// history): `submit` only queues; a background task writes the latest queued value at once and then at most once per
/// `minInterval` (a newer value queued meanwhile replaces the older, which is never written), so neither a request
/// nor a refresh waits on the disk. `flush` writes what is queued on the caller's thread (graceful shutdown).
///
/// What a write does (encode, write atomically, log a failure) is the `write` closure's; it returns whether it wrote.
final class CoalescingWriter<Value: Sendable>: Sendable {
    private struct Pending {
        var value: Value
        var sequence: Int
    }

    private struct State {
        var pending: Pending?
        var nextSequence = 1
        var writerRunning = false
        var writes = 0
        /// Tests waiting for a number of writes (the tag).
        var waiters = WaiterRegistry<Int, Void>()
    }

    private let state = Mutex(State())
    /// Serialises writes (the background writer and `flush`); holds the sequence last written, so an older value never
    /// replaces a newer one.
    private let writeLock = Mutex(0)
    private let minInterval: Duration
    private let clock: any TimeSource
    private let write: @Sendable (Value) -> Bool

    /// A writer that calls `write` at most once per `minInterval` of `clock`.
    init(minInterval: Duration, clock: any TimeSource, write: @escaping @Sendable (Value) -> Bool) {
        self.minInterval = minInterval
        self.clock = clock
        self.write = write
    }

    /// Values written so far.
    var writes: Int { state.withLock { $0.writes } }

    /// Whether no background writer runs: nothing queued is waiting for its turn (tests: the writer has finished
    /// looking, so a write that did not happen will not happen late).
    var isIdle: Bool { state.withLock { !$0.writerRunning } }

    /// Queues `value`; returns at once.
    func submit(_ value: Value) {
        let startWriter = state.withLock { state -> Bool in
            state.pending = Pending(value: value, sequence: state.nextSequence)
            state.nextSequence += 1
            guard !state.writerRunning else { return false }
            state.writerRunning = true
            return true
        }
        if startWriter { Task.detached { await self.runWriter() } }
    }

    /// Writes what is queued now, on the caller's thread, whatever the interval says.
    func flush() {
        guard
            let pending = state.withLock({ state in
                defer { state.pending = nil }
                return state.pending
            })
        else { return }
        perform(pending)
    }

    /// Returns once `count` values have been written in all (tests).
    func waitForWrites(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.writes >= count { return true }
                state.waiters.add(count, continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Writes the queued value, waits the interval, again while something is queued.
    private func runWriter() async {
        while true {
            let next = state.withLock { state -> Pending? in
                guard let pending = state.pending else {
                    state.writerRunning = false
                    return nil
                }
                state.pending = nil
                return pending
            }
            guard let next else { return }
            // The pause's end is fixed before the write, so a clock moved meanwhile still ends it.
            let pauseEnd = clock.now + minInterval
            perform(next)
            await clock.sleep(until: pauseEnd)
        }
    }

    private func perform(_ pending: Pending) {
        let wrote = writeLock.withLock { lastSequence -> Bool in
            guard pending.sequence > lastSequence else { return false }
            lastSequence = pending.sequence
            return write(pending.value)
        }
        guard wrote else { return }
        let woken = state.withLock { state in
            state.writes += 1
            let writes = state.writes
            return state.waiters.removeAll { $0 <= writes }
        }
        for waiter in woken { waiter.resume(()) }
    }
}
