import Synchronization

/// The work an event loop runs between its events, as a task executor: jobs and closures queued on the loop's
/// own thread go straight into `local`; from other threads they go into `remote`, under its lock, and the loop
/// takes it at the start of each round.
///
/// Remote work comes in two lanes. Urgent work (a new connection's start, a shutdown, an eviction) is taken whole
/// each round. Deferrable work (a task resumed from another thread: above all the thousands of parked long polls
/// one snapshot change wakes at once) is taken at most `deferredPerRound` items a round, in the order it came, so
/// the loop reads its sockets between batches: 10 000 woken polls taken in one round kept a new visitor's page
/// waiting behind 5 000 of them on each loop (issue 46 point 2: its p99 was 281–680 ms in `Benchmarks/viewers.sh`).
///
/// Invariant (`@unchecked Sendable`): `local` and `deferred` are touched only on the loop's thread (without the
/// runtime exclusivity check, as `Connection`'s loop-thread state); `remote` is the only state other threads reach.
final class LoopTaskQueue<Work: Sendable>: @unchecked Sendable {
    /// What other threads queued since the loop last took it.
    private struct Remote {
        var urgent: [Work] = []
        var deferrable: [Work] = []
        var isEmpty: Bool { urgent.isEmpty && deferrable.isEmpty }
    }

    /// The most deferrable items one round takes: about 64 woken polls' work (a few milliseconds) between two looks
    /// at the sockets.
    static var deferredPerRound: Int { 64 }

    private let remote = Mutex(Remote())
    @exclusivity(unchecked) private var local: [Work] = []
    /// Deferrable work taken from `remote` but not yet run; the items before `deferredStart` have gone to `local`.
    @exclusivity(unchecked) private var deferred: [Work] = []
    @exclusivity(unchecked) private var deferredStart = 0

    /// An empty queue.
    init() {}

    /// Whether the loop has work of its own queued (then it must not sleep in `epoll_wait`).
    var hasLocalWork: Bool { !local.isEmpty || deferredStart < deferred.count }

    /// Queues `work` from the loop's thread.
    func appendLocal(_ work: Work) { local.append(work) }

    /// Queues `work` from another thread, in the deferrable lane when `deferrable`; true when the queue was empty,
    /// so the loop must be woken (one wake-up per batch).
    func appendRemote(_ work: Work, deferrable: Bool = false) -> Bool {
        remote.withLock { queue in
            defer {
                if deferrable { queue.deferrable.append(work) } else { queue.urgent.append(work) }
            }
            return queue.isEmpty
        }
    }

    /// Moves what other threads queued behind the loop's own work: all the urgent work, then at most
    /// `deferredPerRound` deferrable items, the oldest first.
    func takeRemote() {
        let taken = remote.withLock { queue -> Remote in
            guard !queue.isEmpty else { return Remote() }
            defer { queue = Remote() }
            return queue
        }
        local.append(contentsOf: taken.urgent)
        deferred.append(contentsOf: taken.deferrable)
        let end = min(deferred.count, deferredStart + Self.deferredPerRound)
        guard deferredStart < end else { return }
        local.append(contentsOf: deferred[deferredStart..<end])
        deferredStart = end
        if deferredStart == deferred.count {
            deferred.removeAll(keepingCapacity: true)
            deferredStart = 0
        } else if deferredStart >= 4096, deferredStart * 2 >= deferred.count {
            // Amortized O(1) an item: what has gone is dropped once it is half the array.
            deferred.removeFirst(deferredStart)
            deferredStart = 0
        }
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
