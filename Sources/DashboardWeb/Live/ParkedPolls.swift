import DashboardCore
import Synchronization

/// The live-poll handler's `ParkingQuota`, shared by its requests, with the counts `/metrics` reports.
final class ParkedPolls: Sendable {
    /// A poll over its address's share (or with every place taken) is answered 304 after this long, not at once,
    /// with `Retry-After`: an overflowing client then costs a request a second, not thousands (issue 23).
    static let overflowDelay: Duration = .seconds(1)
    /// What the overflow answer's `Retry-After` asks for, in seconds; `live.js` waits that long before polling again.
    static let retryAfter = 5

    /// What one parked poll costs, as measured: its connection, its request and its waiter entry, its deadline an
    /// entry in the store's one deadline heap (issue 46: RSS grew by about 12 KiB per held poll, 4 000 of them, and
    /// 10 000 viewers took 155 MB, Benchmarks/viewers.sh; 18 KiB while each poll's timeout was a task of its own).
    /// Kept as the budget since a parked poll holds no handler task (`ParkedPoll`): 10 000 viewers now take about
    /// 95 MB. The budget is `capacity` of them.
    static let bytesPerPoll = 12 * 1024

    /// All the parked places.
    let capacity: Int

    private struct State {
        var quota: ParkingQuota
        var overflowed = 0
    }

    private let state: Mutex<State>

    /// Places for `limits.capacity` parked polls, shared fairly by client address.
    init(_ limits: ParkingLimits) {
        self.capacity = limits.capacity
        state = Mutex(State(quota: ParkingQuota(limits)))
    }

    /// Takes a place for `address`; false (and counted) when it may not park now.
    func claim(_ address: String) -> Bool {
        state.withLock { state in
            if state.quota.claim(address) { return true }
            state.overflowed += 1
            return false
        }
    }

    /// Gives back a place `address` claimed.
    func release(_ address: String) { state.withLock { $0.quota.release(address) } }

    /// Polls held now, and polls answered after the overflow delay so far.
    var counts: (held: Int, overflowed: Int) { state.withLock { ($0.quota.total, $0.overflowed) } }
}
