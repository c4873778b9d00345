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
