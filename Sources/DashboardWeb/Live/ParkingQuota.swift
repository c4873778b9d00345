import DashboardCore

/// How many long polls each client address may hold parked at once (issue 23: two addresses took all 512 parked
/// places, so every other viewer's live page fell back to polling). A pure value: the live-poll handler asks it
/// before parking and gives the place back when the poll ends, wherever the waiters themselves are kept.
///
/// Each address may hold at most `share` places (by default a sixteenth of them: 4 000 of 64 000), so it takes at least
/// 16 addresses to fill them. This is the one place the parked-poll cap is enforced (the snapshot store parks
/// whatever it is given).
struct ParkingQuota: Equatable, Sendable {
    /// All the parked places.
    let capacity: Int
    /// The most one address may hold.
    let share: Int
    /// Places held per address (no entry for zero).
    private(set) var held: [String: Int] = [:]
    /// Places held in all.
    private(set) var total = 0

    /// A quota of `limits.capacity` places, `limits.share` for each address.
    init(_ limits: ParkingLimits) {
        self.capacity = limits.capacity
        self.share = limits.share
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
