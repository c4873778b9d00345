import CLinux
import Glibc
import Synchronization
import Timing

/// One thread running an edge-triggered epoll loop for the connections assigned to it, their deadlines, and
/// the handler tasks that prefer it as their executor. It composes its parts: the sockets it watches
/// (`EpollRegistry`), the work it runs as a task executor (`LoopTaskQueue`), the connections' deadlines
/// (`TimerHeap`), the answers it sends at the end of a round (`FlushBatch`), when it gives its core away
/// (`CoreSharing`) and the texts of the current second (`LoopDate`).
///
/// Why not one Dispatch read source per connection (the first design, see `Connection`): libdispatch re-arms
/// a source after every event through its manager thread (two `epoll_ctl`, an `ioctl`, an eventfd write and
/// 1.1-1.8 thread switches per request), which cost more CPU per request than nginx spends in total. Here a
/// socket is registered once and a request costs one `recv`, one `sendmsg` and a share of one `epoll_wait`, all
/// on one thread.
///
/// The clock rule (the one place it is written): a round reads the monotonic clock twice, as its `epoll_wait`
/// ends (`now`, the round's time: every deadline, timer, log duration and the date refresh of the round use it,
/// like nginx's cached `ngx_current_msec`) and as the next wait begins (the wait's timeout, and how long the wait
/// took for `CoreSharing`; once more after a `sched_yield`). Only the flush batch reads it besides, because it is
/// there to notice a long handler step: once when a round's first answer is queued, and after each handler step
/// while answers wait. The wall clock is read once a second, by `LoopDate`.
///
/// Invariant (`@unchecked Sendable`): the properties under "loop thread only" are touched only on the loop's
/// own thread; other threads reach the loop through `execute(_:)` and `enqueue(_:)`, which queue on `tasks`'s
/// remote side and wake the loop through `registry`.
final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// Work the loop runs between its events.
    private enum Work: Sendable {
        /// A task's job (the loop as its executor).
        case job(UnownedJob)
        /// A closure from `execute(_:)`.
        case closure(@Sendable () -> Void)
    }

    /// For thread names and logs.
    let name: String
    /// Its place in `EventLoopGroup.shared`: what a server's per-loop state is found by (`AnswerMemo.PerLoop`).
    let index: Int
    /// The loop thread's `pthread_self()`, published once it runs.
    private let threadID = Atomic<UInt>(0)
    private let registry = EpollRegistry()
    private let tasks = LoopTaskQueue<Work>()

    // Loop thread only: the properties it mutates per event skip the runtime exclusivity check (see `Connection`).
    /// The round's time: when its `epoll_wait` returned (the clock rule above).
    @exclusivity(unchecked) private(set) var now: MonotonicInstant
    /// The loop's first `now`, which never changes, so any thread may read it: a connection's state starts at it
    /// until the loop takes the connection over (`Connection.start`) and starts it again at the loop's `now`.
    let started: MonotonicInstant
    /// The `Date` header and log timestamp of the current second (no lock, unlike `DateCache.shared`).
    @exclusivity(unchecked) private var date: LoopDate
    /// Field lines of heads whose fields are shared between answers, written once (only this loop's thread, so
    /// without the runtime exclusivity check, as `Connection`'s loop-thread state).
    @exclusivity(unchecked) var preparedFields = PreparedFields()
    /// Where connections `recv` into before the bytes go to their parser: one per loop, reused, because a
    /// temporary allocation over 1 KiB costs ~60 ns per call (heap or stack check).
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
    /// Where response heads are written before they are copied into their arrays (`ResponseHead.serialize`).
    let headScratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var flushes = FlushBatch<Connection>()
    @exclusivity(unchecked) private var coreSharing: CoreSharing

    /// Creates the loop and starts its thread; it runs for the life of the process.
    init(name: String, index: Int) {
        self.name = name
        self.index = index
        started = .now
        now = started
        date = LoopDate(now: started)
        coreSharing = CoreSharing(start: started)

        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
    }

    /// Whether the caller runs on this loop's thread.
    var inLoop: Bool { pthread_self() == threadID.load(ordering: .acquiring) }

    /// The `Date` header value and log timestamp of the round's second.
    var dateTexts: DateCache.Texts { date.texts }

    /// Runs `work` on the loop thread, after the work already queued; `deferrable` work from another thread may
    /// wait a few rounds behind the sockets (`LoopTaskQueue`: a parked poll's answer, woken with thousands more).
    func execute(deferrable: Bool = false, _ work: @escaping @Sendable () -> Void) {
        submit(.closure(work), deferrable: deferrable)
    }

    /// Runs a task's job on the loop thread (SE-0417 task executor): handler tasks prefer their connection's
    /// loop, so a request is read, handled and answered on one thread without waking any other.
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)), deferrable: true)
    }

    /// A job from another thread is deferrable (`LoopTaskQueue`: a woken long poll must not hold up a new
    /// connection's start or the sockets' events), and so is a closure that says so; other closures are urgent.
    private func submit(_ work: Work, deferrable: Bool) {
        if inLoop {
            tasks.appendLocal(work)
        } else if tasks.appendRemote(work, deferrable: deferrable) {
            registry.wake()
        }
    }

    // MARK: - Registration (loop thread)

    /// Starts watching `connection`'s socket; returns its token, or nil (with errno set) if epoll refused.
    func register(_ connection: Connection, fd: Int32) -> (slot: Int, generation: UInt32)? {
        registry.register(connection, fd: fd)
    }

    /// Forgets a connection before its socket is closed (closing the fd removes it from the epoll set). The
    /// generation moves on, so events or deadlines still queued for the old token are ignored.
    func deregister(slot: Int) {
        registry.deregister(slot: slot)
    }

    /// Calls `timerFired(deadline:)` on the connection at or soon after `deadline`.
    func arm(slot: Int, generation: UInt32, deadline: MonotonicInstant) {
        timers.insert(ConnectionTimer(slot: slot, generation: generation), at: deadline)
    }

    /// Has `connection` send its output once this round's events, timers and queued work are handled
    /// (`Connection.roundEnded`; `FlushBatch` says why).
    func flushAtEndOfRound(_ connection: Connection) {
        flushes.add(connection, now: .now)
    }

    // MARK: - The loop

    private func run() {
        threadID.store(pthread_self(), ordering: .releasing)
        _ = pthread_setname_np(pthread_self(), String(name.prefix(15)))
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(EpollRegistry.maxEvents))
        while true {
            tasks.takeRemote()
            runLocal()
            endRound()
            let roundEnded = MonotonicInstant.now
            var waitStarts = roundEnded
            if coreSharing.shouldYield(now: roundEnded) {
                sched_yield()
                waitStarts = .now
            }
            let count = registry.wait(into: events, timeout: tasks.hasLocalWork ? 0 : timeout(from: waitStarts))
            now = .now
            coreSharing.waited(from: roundEnded, to: now)
            date.update(now: now)
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                guard let connection = registry.connection(for: events[index]) else { continue }
                connection.handle(events: events[index].events)
                // The request's handler task was enqueued here: run it while its bytes are still in cache.
                runLocal()
            }
            fireTimers()
            endRound()
        }
    }

    /// Sends the round's output; a flush may queue another (an answer given at once as a socket drains).
    private func endRound() {
        if !flushes.isEmpty { coreSharing.answersSent() }
        while !flushes.isEmpty {
            let batch = flushes.take()
            for connection in batch { connection.roundEnded() }
            flushes.recycle(batch)
        }
    }

    /// Runs the work queued so far; work it queues in turn waits for the next round.
    private func runLocal() {
        tasks.runLocal { work in
            switch work {
            case .job(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
                // A handler's step may be long (a cold render): what was answered before it goes out now.
                if flushes.isOverdue(now: .now) { endRound() }
            case .closure(let work): work()
            }
        }
    }

    /// Milliseconds from `start` until the earliest deadline (rounded up, so it is due when the wait ends); -1 for
    /// none. `start` is the clock the loop read as the wait began, for `coreSharing` too: one read, not two.
    private func timeout(from start: MonotonicInstant) -> Int32 {
        guard let earliest = timers.earliest else { return -1 }
        return Int32(clamping: Duration.nanoseconds(earliest.nanoseconds(since: start)).millisecondsRoundedUp)
    }

    private func fireTimers() {
        guard !timers.isEmpty else { return }
        while let entry = timers.popDue(now: now) {
            guard let connection = registry.connection(slot: entry.payload.slot, generation: entry.payload.generation)
            else {
                continue
            }
            connection.timerFired(deadline: entry.deadline)
            runLocal()
        }
    }
}
