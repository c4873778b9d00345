import Synchronization

/// The work an event loop runs between its events, as a task executor: jobs and closures queued on the loop's
/// own thread go straight into `local`; from other threads they go into `remote`, under its lock, and the loop
/// takes the whole of it at once.
///
/// Invariant (`@unchecked Sendable`): `local` is touched only on the loop's thread (without the runtime
/// exclusivity check, as `Connection`'s loop-thread state); `remote` is the only state other threads reach.
final class LoopTaskQueue<Work: Sendable>: @unchecked Sendable {
    private let remote = Mutex<[Work]>([])
    @exclusivity(unchecked) private var local: [Work] = []

    /// An empty queue.
    init() {}

    /// Whether the loop has work of its own queued (then it must not sleep in `epoll_wait`).
    var hasLocalWork: Bool { !local.isEmpty }

    /// Queues `work` from the loop's thread.
    func appendLocal(_ work: Work) { local.append(work) }

    /// Queues `work` from another thread; true when the queue was empty, so the loop must be woken (one
    /// wake-up per batch).
    func appendRemote(_ work: Work) -> Bool {
        remote.withLock { queue in
            defer { queue.append(work) }
            return queue.isEmpty
        }
    }

    /// Moves what other threads queued behind the loop's own work.
    func takeRemote() {
        let work = remote.withLock { queue -> [Work] in
            guard !queue.isEmpty else { return [] }
            defer { queue = [] }
            return queue
        }
        local.append(contentsOf: work)
    }

    /// Runs the work queued so far through `run`; work queued meanwhile waits for the next call, so a task that
    /// keeps yielding cannot starve the sockets.
    func runLocal(_ run: (Work) -> Void) {
        let end = local.count
        guard end > 0 else { return }
        var index = 0
        while index < end {
            run(local[index])
            index += 1
        }
        local.removeFirst(end)
    }
}
