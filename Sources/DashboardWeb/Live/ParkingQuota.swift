import DashboardCore

/// How many long polls each client address may hold parked at once (issue 23: two addresses took all 512 parked
/// places, so every other viewer's live page fell back to polling). A pure value: the live-poll handler asks it
/// before parking and gives the place back when the poll ends, wherever the waiters themselves are kept.
///
/// Each address may hold at most `share` places (a sixteenth of them: 32 of 512), so it takes at least 16 addresses
/// to fill them; behind a shared address (a NAT, an office) that is still 32 open tabs' live regions.
struct ParkingQuota: Equatable, Sendable {
    /// All the parked places (the snapshot store's `maxParked`).
    let capacity: Int
    /// The most one address may hold.
    let share: Int
    /// Places held per address (no entry for zero).
    private(set) var held: [String: Int] = [:]
    /// Places held in all.
    private(set) var total = 0

    /// A quota of `capacity` places, `capacity / 16` (at least 1) for each address.
    init(capacity: Int) {
        self.capacity = capacity
        self.share = max(1, capacity / 16)
    }

    /// Takes a place for `address`; false when it holds its share already or every place is taken.
    mutating func claim(_ address: String) -> Bool {
        let holding = held[address, default: 0]
        guard holding < share, total < capacity else { return false }
        held[address] = holding + 1
        total += 1
        return true
    }

    /// Gives back a place `address` claimed.
    mutating func release(_ address: String) {
        guard let holding = held[address] else { return }
        held[address] = holding > 1 ? holding - 1 : nil
        total -= 1
    }
}
