import CLinux
import Glibc
import Synchronization
import Timing

/// One thread running an edge-triggered epoll loop for the connections assigned to it, their deadlines, and
/// the handler tasks that prefer it as their executor.
///
/// Why not one Dispatch read source per connection (the first design, see `Connection`): libdispatch re-arms
/// a source after every event through its manager thread (two `epoll_ctl`, an `ioctl`, an eventfd write and
/// about 1.7 thread switches per request), which cost more CPU per request than nginx spends in total. Here a
/// socket is registered once (`EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET`) and a request costs one `recv`,
/// one `sendmsg` and a share of one `epoll_wait`, all on one thread.
///
/// Invariant (`@unchecked Sendable`): the properties under "loop thread only" are touched only on the loop's
/// own thread; other threads reach the loop through `execute(_:)` and `enqueue(_:)`, which take `remote`'s
/// lock and wake the loop through its eventfd.
final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// Work handed over from another thread.
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    /// The `epoll_data` of the wake-up eventfd; connection tokens never reach it (their slot is < 2^32 - 1).
    private static let wakeToken = UInt64(UInt32.max)
    private static let maxEvents: Int32 = 256

    /// For thread names and logs.
    let name: String
    /// Its place in `EventLoopGroup.shared`: what a server's per-loop state is found by (`AnswerMemo.PerLoop`).
    let index: Int
    private let epollFD: Int32
    private let wakeFD: Int32
    /// The loop thread's `pthread_self()`, published once it runs.
    private let threadID = Atomic<UInt>(0)
    private let remote = Mutex<[Work]>([])

    // Loop thread only: the properties it mutates per event skip the runtime exclusivity check (see `Connection`).
    /// The time the current round of events started: what connections use for their deadlines, so a
    /// request reads the clock once or twice instead of six times (like nginx's cached `ngx_current_msec`).
    @exclusivity(unchecked) private(set) var now: MonotonicInstant
    /// The loop's first `now`, which never changes, so any thread may read it: a connection's state starts at it
    /// until the loop takes the connection over (`Connection.start`) and starts it again at the loop's `now`.
    let started: MonotonicInstant
    /// The `Date` header and log timestamp of the current second, refreshed with `now` (no lock, unlike
    /// `DateCache.shared`, which it copies from once a second).
    @exclusivity(unchecked) private(set) var dateTexts = DateCache.shared.texts()
    /// Field lines of heads whose fields are shared between answers, written once (only this loop's thread, so
    /// without the runtime exclusivity check, as `Connection`'s loop-thread state).
    @exclusivity(unchecked) var preparedFields = PreparedFields()
    @exclusivity(unchecked) private var dateSecond = time(nil)
    /// Where connections `recv` into before the bytes go to their parser: one per loop, reused, because a
    /// temporary allocation over 1 KiB costs ~60 ns per call (heap or stack check).
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
    /// Where response heads are written before they are copied into their arrays (`ResponseHead.serialize`).
    let headScratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
    @exclusivity(unchecked) private var connections: [Connection?] = []
    @exclusivity(unchecked) private var generations: [UInt32] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var local: [Work] = []
    @exclusivity(unchecked) private var timers = TimerHeap()
    /// Connections whose output goes out at the end of the round (`flushAtEndOfRound`), and the list being flushed.
    @exclusivity(unchecked) private var flushes: [Connection] = []
    @exclusivity(unchecked) private var flushing: [Connection] = []
    /// When the first of `flushes` was queued: a round whose handler work runs long sends what it has early.
    @exclusivity(unchecked) private var firstFlushQueued = MonotonicInstant.now
    /// How long an answer may wait for the rest of its round: handler tasks run on the loop, and a round with a
    /// cold render of a large page in it (milliseconds at 100 times the data) must not hold the answers before it.
    private static let flushDelayBound = Duration.microseconds(500)
    /// When the loop yields its core after sending answers.
    @exclusivity(unchecked) private var coreSharing = CoreSharing(start: .now)

    /// Creates the loop and starts its thread; it runs for the life of the process.
    init(name: String, index: Int) {
        self.name = name
        self.index = index
        started = .now
        now = started
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd failed: errno \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        precondition(epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0, "epoll_ctl failed: errno \(errno)")

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

    /// Runs `work` on the loop thread, after the work already queued.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    /// Runs a task's job on the loop thread (SE-0417 task executor): handler tasks prefer their connection's
    /// loop, so a request is read, handled and answered on one thread without waking any other.
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    private func submit(_ work: Work) {
        if inLoop {
            local.append(work)
            return
        }
        let wasEmpty = remote.withLock { queue in
            defer { queue.append(work) }
            return queue.isEmpty
        }
        // One wake-up per batch: the loop takes the whole queue at once.
        if wasEmpty {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    // MARK: - Registration (loop thread)

    /// Starts watching `connection`'s socket; returns its token, or nil (with errno set) if epoll refused.
    func register(_ connection: Connection, fd: Int32) -> (slot: Int, generation: UInt32)? {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = connections.count
            connections.append(nil)
            generations.append(0)
        }
        let generation = generations[slot]
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = UInt64(generation) << 32 | UInt64(slot)
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            freeSlots.append(slot)
            return nil
        }
        connections[slot] = connection
        return (slot, generation)
    }

    /// Forgets a connection before its socket is closed (closing the fd removes it from the epoll set). The
    /// generation moves on, so events or deadlines still queued for the old token are ignored.
    func deregister(slot: Int) {
        connections[slot] = nil
        generations[slot] &+= 1
        freeSlots.append(slot)
    }

    /// Calls `timerFired(deadline:)` on the connection at or soon after `deadline`.
    func arm(slot: Int, generation: UInt32, deadline: MonotonicInstant) {
        timers.insert(TimerHeap.Entry(deadline: deadline, slot: slot, generation: generation))
    }

    /// Has `connection` send its output once this round's events, timers and queued work are handled
    /// (`Connection.roundEnded`): answers go out together, after the round's last event, so the peers they wake
    /// find this thread waiting rather than taking its core from the middle of the round.
    func flushAtEndOfRound(_ connection: Connection) {
        if flushes.isEmpty { firstFlushQueued = .now }
        flushes.append(connection)
    }

    // MARK: - The loop

    private func run() {
        threadID.store(pthread_self(), ordering: .releasing)
        _ = pthread_setname_np(pthread_self(), String(name.prefix(15)))
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.maxEvents))
        while true {
            takeRemote()
            runLocal()
            endRound()
            let roundEnded = MonotonicInstant.now
            var waitStarts = roundEnded
            if coreSharing.shouldYield(now: roundEnded) {
                sched_yield()
                waitStarts = .now
            }
            let count = epoll_wait(epollFD, events, Self.maxEvents, local.isEmpty ? timeout(from: waitStarts) : 0)
            now = .now
            coreSharing.waited(from: roundEnded, to: now)
            let second = time(nil)
            if second != dateSecond {
                dateSecond = second
                dateTexts = DateCache.shared.texts()
            }
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                if token == Self.wakeToken {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    continue
                }
                let slot = Int(token & 0xFFFF_FFFF)
                guard generations[slot] == UInt32(token >> 32), let connection = connections[slot] else { continue }
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
            swap(&flushes, &flushing)
            for connection in flushing { connection.roundEnded() }
            flushing.removeAll(keepingCapacity: true)
        }
    }

    private func takeRemote() {
        let work = remote.withLock { queue -> [Work] in
            guard !queue.isEmpty else { return [] }
            defer { queue = [] }
            return queue
        }
        local.append(contentsOf: work)
    }

    /// Runs the work queued so far; work it queues in turn waits for the next round, so a task that keeps
    /// yielding cannot starve the sockets.
    private func runLocal() {
        let end = local.count
        guard end > 0 else { return }
        var index = 0
        while index < end {
            let work = local[index]
            switch work {
            case .job(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
                // A handler's step may be long (a cold render): what was answered before it goes out now.
                if !flushes.isEmpty && MonotonicInstant.now - firstFlushQueued > Self.flushDelayBound { endRound() }
            case .closure(let work): work()
            }
            index += 1
        }
        local.removeFirst(end)
    }

    /// Milliseconds from `start` until the earliest deadline (rounded up, so it is due when the wait ends); -1 for
    /// none. `start` is the clock the loop read as the wait began, for `coreSharing` too: one read, not two.
    private func timeout(from start: MonotonicInstant) -> Int32 {
        guard let earliest = timers.earliest else { return -1 }
        let wait = earliest.nanoseconds(since: start)
        guard wait > 0 else { return 0 }
        let milliseconds = (wait - 1) / 1_000_000 + 1
        return Int32(min(milliseconds, Int64(Int32.max)))
    }

    private func fireTimers() {
        guard !timers.isEmpty else { return }
        while let entry = timers.popDue(now: now) {
            guard generations[entry.slot] == entry.generation, let connection = connections[entry.slot] else {
                continue
            }
            connection.timerFired(deadline: entry.deadline)
            runLocal()
        }
    }
}
