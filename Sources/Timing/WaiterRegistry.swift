/// Suspended callers waiting for something, each with an id, a tag saying what it waits for, and a continuation to
/// resume with a `Value`: the one waiter registry (the snapshot store's refresh waiters and long polls, the upstream
/// client's limiter queue, the PostgreSQL pool's queue, the profile images' joiners, the server's drain and stop
/// waiters, the shutdown signal's waiters, the snapshot writer's test waiters).
///
/// Not thread-safe: the owner keeps it under the same lock as the state that decides whom to wake, so "decide, then
/// register" is one step and a wake-up can never fall between them. Resume what `remove` returns after unlocking.
/// Ids grow, so the oldest waiter is the first in line (first come, first served). Lookups by id are O(1).
public struct WaiterRegistry<Tag: Sendable, Value: Sendable>: Sendable {
    /// One waiter.
    public struct Waiter: Sendable {
        /// What resumes a waiter: a suspended task's continuation, or a callback for a wait that holds no task (a
        /// parked long poll, issue 46 point 2: 10 000 suspended handler tasks were most of the CPU a change cost).
        enum Resumer: Sendable {
            case continuation(CheckedContinuation<Value, Never>)
            case callback(@Sendable (Value) -> Void)
        }

        /// Its id (increasing in arrival order).
        public let id: UInt64
        /// What it waits for.
        public let tag: Tag
        /// Resumed once, by whoever removed it.
        let resumer: Resumer

        /// Resumes the waiter with `value` (its deadline's entry, if any, is left to find it gone).
        public func resume(_ value: Value) {
            switch resumer {
            case .continuation(let continuation): continuation.resume(returning: value)
            case .callback(let callback): callback(value)
            }
        }
    }

    private var waiters: [UInt64: Waiter] = [:]
    private var lastID: UInt64 = 0
    /// The waiters' deadlines and their one timer, made on the first deadline.
    private var deadlines: WaiterDeadlines?

    /// An empty registry.
    public init() {}

    /// How many wait now.
    public var count: Int { waiters.count }

    /// Whether nobody waits.
    public var isEmpty: Bool { waiters.isEmpty }

    /// A fresh id, for a waiter that registers later (`add(id:…)`), so a timer can name it first.
    public mutating func reserveID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Registers `continuation` under a fresh id; returns the id.
    @discardableResult
    public mutating func add(_ tag: Tag, _ continuation: CheckedContinuation<Value, Never>) -> UInt64 {
        let id = reserveID()
        waiters[id] = Waiter(id: id, tag: tag, resumer: .continuation(continuation))
        return id
    }

    /// Registers `continuation` under `id` (from `reserveID`, so later than every waiter already here).
    public mutating func add(id: UInt64, _ tag: Tag, _ continuation: CheckedContinuation<Value, Never>) {
        waiters[id] = Waiter(id: id, tag: tag, resumer: .continuation(continuation))
    }

    /// Registers `continuation` under `id` (from `reserveID`; a fresh one when nil) and, with a `deadline`, arms the
    /// end of its wait: `expire` runs with the id at `deadline` on `clock` (the registry's one timer, `WaiterDeadlines`,
    /// the first clock given) and finds the waiter there, or gone when it was resumed first. The one register-then-arm
    /// sequence: one step under the owner's lock, so the deadline is armed for a waiter that is surely there. Returns
    /// the id.
    @discardableResult
    public mutating func add(
        id: UInt64? = nil, _ tag: Tag, _ continuation: CheckedContinuation<Value, Never>,
        until deadline: ContinuousClock.Instant?, on clock: any TimeSource,
        expire: @escaping @Sendable (UInt64) async -> Void
    ) -> UInt64 {
        add(id: id, tag, .continuation(continuation), until: deadline, on: clock, expire: expire)
    }

    /// `add(id:_:_:until:on:expire:)` for a waiter that holds no task: `resume` is called with its value instead,
    /// on the thread that resumes it (outside the owner's lock, like a continuation).
    @discardableResult
    public mutating func add(
        id: UInt64? = nil, _ tag: Tag, resume: @escaping @Sendable (Value) -> Void,
        until deadline: ContinuousClock.Instant?, on clock: any TimeSource,
        expire: @escaping @Sendable (UInt64) async -> Void
    ) -> UInt64 {
        add(id: id, tag, .callback(resume), until: deadline, on: clock, expire: expire)
    }

    private mutating func add(
        id: UInt64?, _ tag: Tag, _ resumer: Waiter.Resumer, until deadline: ContinuousClock.Instant?,
        on clock: any TimeSource, expire: @escaping @Sendable (UInt64) async -> Void
    ) -> UInt64 {
        let id = id ?? reserveID()
        waiters[id] = Waiter(id: id, tag: tag, resumer: resumer)
        if let deadline {
            if deadlines == nil { deadlines = WaiterDeadlines(on: clock) }
            deadlines?.arm(id, at: deadline, expire: expire)
        }
        return id
    }

    /// Deadline entries held, those of waiters resumed early included (tests: they are compacted away).
    public var deadlineEntries: Int { deadlines?.count ?? 0 }

    /// Whether waiter `id` is here.
    public func contains(id: UInt64) -> Bool { waiters.index(forKey: id) != nil }

    /// Removes waiter `id` (it timed out, say); nil when it is gone already (woken meanwhile).
    public mutating func remove(id: UInt64) -> Waiter? {
        defer { compactDeadlines() }
        return waiters.removeValue(forKey: id)
    }

    /// Removes the oldest waiter (a scan: the queues this serves are short, and only a release looks).
    public mutating func removeFirst() -> Waiter? {
        guard let oldest = waiters.keys.min() else { return nil }
        defer { compactDeadlines() }
        return waiters.removeValue(forKey: oldest)
    }

    /// Removes every waiter whose tag matches.
    public mutating func removeAll(where matches: (Tag) -> Bool) -> [Waiter] {
        let removed = waiters.values.filter { matches($0.tag) }.sorted { $0.id < $1.id }
        for waiter in removed { waiters[waiter.id] = nil }
        compactDeadlines()
        return removed
    }

    /// Drops the deadlines of waiters gone when they outnumber those here (each wake-up leaves one, and parked polls
    /// woken every few seconds with 25 s deadlines would otherwise keep several per poll; amortized O(1) a removal),
    /// and all of them, with the timer, once nobody waits.
    private func compactDeadlines() {
        guard let deadlines else { return }
        if waiters.isEmpty { return deadlines.removeAll() }
        guard deadlines.count > 2 * waiters.count + 64 else { return }
        let waiters = waiters
        // An index, not the waiter: copying each one out (its tag and its resumer retained and released) was 6 % of
        // the thread that wakes 10 000 parked polls (issue 46 point 2, perf).
        deadlines.compact { waiters.index(forKey: $0) != nil }
    }
}
