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

/// How many live polls may be parked at once, in all and per client address (`--max-parked-polls`,
/// `--max-parked-polls-per-client`); the one place their defaults are written.
public struct ParkingLimits: Sendable, Equatable {
    /// Places in all: one for each connection the server's default cap admits, so 50 000 live viewers are all held
    /// (issue 46: 512 places made every viewer past the 512th learn of a change one change late). 0 has every poll
    /// answered after a second with `Retry-After`, as when every place is taken.
    public var capacity = 64_000
    /// The most one client address may hold; nil: a sixteenth of `capacity` (`share`).
    public var perClient: Int?

    /// The defaults.
    public init() {}

    /// The most one client address may hold: `perClient`, or a sixteenth of `capacity` (at least 1), so it takes
    /// at least 16 addresses to fill every place (issue 23).
    public var share: Int { max(1, perClient ?? capacity / 16) }
}
