import Synchronization

/// The deadlines of one `WaiterRegistry`'s waiters and the one timer that ends their waits (issue 46 point 2): a
/// waiter with a deadline costs an entry in a `DeadlineHeap`, not a task of its own sleeping on a clock.
///
/// A task per waiter (`TimeSource.after`) cost about 2 KiB per parked long poll (the task, its sleep's frames and the
/// clock's timer), a second task beside the poll's own. Here one task sleeps until the earliest deadline (through
/// `TimeSource.after`, the one timer mechanism), runs `expire` for every waiter due by then, and sleeps again until
/// the next. A waiter resumed early leaves its entry: its `expire` then finds nothing (ids are never reused), and the
/// registry compacts the heap when such entries outnumber the waiters.
///
/// Its own lock, never held while an `expire` runs: an owner arms a deadline under its lock (owner, then this one);
/// the timer takes this lock, then runs the `expire`s (which take the owner's) after releasing it.
final class WaiterDeadlines: Sendable {
    /// What a deadline does when it comes: ends the wait of the waiter it names, if it still waits.
    typealias Expire = @Sendable (UInt64) async -> Void

    private struct State {
        var heap = DeadlineHeap<ContinuousClock.Instant, (id: UInt64, expire: Expire)>()
        /// The sleeping timer and the deadline it wakes at.
        var timer: (task: Task<Void, Never>, deadline: ContinuousClock.Instant)?
    }

    private let clock: any TimeSource
    private let state = Mutex(State())

    /// Deadlines on `clock`.
    init(on clock: any TimeSource) { self.clock = clock }

    /// Entries held, stale ones included.
    var count: Int { state.withLock { $0.heap.count } }

    /// Whether a timer sleeps now (tests).
    var isArmed: Bool { state.withLock { $0.timer != nil } }

    /// Runs `expire` with `id` once `deadline` has come (unless the owner finds the waiter gone by then).
    func arm(_ id: UInt64, at deadline: ContinuousClock.Instant, expire: @escaping Expire) {
        state.withLock { state in
            state.heap.insert((id, expire), at: deadline)
            rearm(&state)
        }
    }

    /// Drops every entry and stops the timer (nobody waits any more: a timer left asleep for the deadline of a waiter
    /// resumed early would wake for nothing, and tests read a sleeping timer as a waiter's).
    func removeAll() {
        let timer = state.withLock { state in
            defer { state = State() }
            return state.timer
        }
        timer?.task.cancel()
    }

    /// Drops the entries of waiters no longer here (`isWaiting` false).
    func compact(keeping isWaiting: (UInt64) -> Bool) {
        state.withLock { $0.heap.compact { isWaiting($0.id) } }
    }

    /// The timer came: takes every entry due now, sleeps again until the next one, then runs the due `expire`s.
    private func fire() async {
        let due = state.withLock { state in
            let now = clock.now
            // This timer's; one armed for an earlier deadline meanwhile cancelled this one, and is due too.
            if let timer = state.timer, timer.deadline <= now { state.timer = nil }
            var due: [(id: UInt64, expire: Expire)] = []
            while let entry = state.heap.popDue(now: now) { due.append(entry.payload) }
            rearm(&state)
            return due
        }
        for (id, expire) in due { await expire(id) }
    }

    /// Makes the timer wake at the earliest deadline: armed when there is none, moved when an earlier one came.
    private func rearm(_ state: inout State) {
        guard let earliest = state.heap.earliest else { return }
        if let timer = state.timer {
            guard earliest < timer.deadline else { return }
            timer.task.cancel()
        }
        state.timer = (clock.after(earliest) { [self] in await fire() }, earliest)
    }
}
