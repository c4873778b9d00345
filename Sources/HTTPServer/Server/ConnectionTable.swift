/// The server's open connections and the counts its admission decides on: how many are serving (what the cap
/// counts), how many are being refused with a 503, and how many each client address holds. A pure value (the server
/// keeps it under its lock), generic over what it holds so its tests need no sockets.
struct ConnectionTable<Handle> {
    /// What a registered connection is doing, for the counts.
    enum Role: Equatable {
        /// Admitted and counted against the cap and its address's limit.
        case serving
        /// Over a limit and being answered 503; bounded separately.
        case rejecting
        /// Chosen to make room at the cap and about to close; still counted against its address.
        case evicting
        /// Sending its last answer (`Connection: close`) and about to close; no longer counted anywhere.
        case finishing
    }

    /// One registered connection.
    struct Entry {
        var handle: Handle
        var address: String
        var role: Role
    }

    /// Every registered connection by id.
    private(set) var entries: [Int: Entry] = [:]
    /// Entries whose role is `.serving`: what the cap counts.
    private(set) var serving = 0
    /// Entries whose role is `.rejecting`, plus reservations for them.
    private(set) var rejecting = 0
    /// Serving and evicting connections per client address (no entry for zero).
    private(set) var perAddress: [String: Int] = [:]
    private var nextID = 0

    /// An empty table.
    init() {}

    /// Whether no connection is registered.
    var isEmpty: Bool { entries.isEmpty }

    /// Connections `address` holds (serving or evicting).
    func count(of address: String) -> Int { perAddress[address, default: 0] }

    /// The serving connections, with their ids: what an eviction chooses from.
    var servingEntries: [(id: Int, entry: Entry)] {
        entries.compactMap { $0.value.role == .serving ? ($0.key, $0.value) : nil }
    }

    /// Counts a new serving connection of `address` and returns its id (registered later with `register`).
    mutating func reserveServing(address: String) -> Int {
        nextID += 1
        serving += 1
        perAddress[address, default: 0] += 1
        return nextID
    }

    /// Counts a new connection to be answered 503 and returns its id.
    mutating func reserveRejecting() -> Int {
        nextID += 1
        rejecting += 1
        return nextID
    }

    /// Registers the connection reserved as `id`.
    mutating func register(id: Int, handle: Handle, address: String, role: Role) {
        entries[id] = Entry(handle: handle, address: address, role: role)
    }

    /// Marks serving connection `id` as evicted to make room: it no longer counts against the cap (its address
    /// still counts it until it closes). Returns its handle, or nil when it is not serving (closed meanwhile).
    mutating func evict(_ id: Int) -> Handle? {
        guard let entry = entries[id], entry.role == .serving else { return nil }
        entries[id]?.role = .evicting
        serving -= 1
        return entry.handle
    }

    /// A victim became busy before it could be closed: it counts as serving again (the cap is exceeded by one
    /// until a connection closes, rather than cutting off a request in progress).
    mutating func evictionRefused(_ id: Int) {
        guard entries[id]?.role == .evicting else { return }
        entries[id]?.role = .serving
        serving += 1
    }

    /// Connection `id` now counts under `address` (behind a trusted proxy, the client its latest request is
    /// forwarded for); nothing changes for a connection that no longer counts against an address.
    mutating func readdress(_ id: Int, to address: String) {
        guard let entry = entries[id], entry.address != address, entry.role == .serving || entry.role == .evicting
        else { return }
        release(entry.address)
        perAddress[address, default: 0] += 1
        entries[id]?.address = address
    }

    /// Connection `id` is sending its last answer: its slot and its address's count are free from now on.
    mutating func lastAnswer(_ id: Int) {
        // The 503 of a refusal stays bounded by `rejecting` until the socket closes.
        guard let entry = entries[id], freeSlot(of: entry) else { return }
        entries[id]?.role = .finishing
    }

    /// Connection `id` closed: it is forgotten, and whatever it still counted against is free.
    mutating func remove(_ id: Int) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !freeSlot(of: entry), entry.role == .rejecting { rejecting -= 1 }
    }

    /// Frees the slot and the address count a serving or evicting connection holds; false for any other role (a
    /// refusal's 503 counts in `rejecting`; a finishing connection freed its slot already).
    private mutating func freeSlot(of entry: Entry) -> Bool {
        switch entry.role {
        case .serving:
            serving -= 1
            release(entry.address)
            return true
        case .evicting:
            release(entry.address)
            return true
        case .rejecting, .finishing:
            return false
        }
    }

    private mutating func release(_ address: String) {
        let count = perAddress[address, default: 1] - 1
        perAddress[address] = count > 0 ? count : nil
    }
}
