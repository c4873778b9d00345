/// An event loop's table of the connections it watches, by slot, with a generation per slot: the `epoll_data`
/// token a socket is registered under, and what a deadline names, is the pair, so an event or a timer still
/// queued for a connection that has since gone (its slot freed, perhaps reused) finds nothing.
///
/// A pure value (generic, so tests fill it with plain values); `EpollRegistry` keeps one for its sockets.
struct LoopSlots<Item> {
    /// The `epoll_data` of the loop's wake-up eventfd: no slot's token reaches it (slots stay below 2^32 - 1).
    static var wakeToken: UInt64 { UInt64(UInt32.max) }

    private var items: [Item?] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int] = []

    /// An empty table.
    init() {}

    /// The token of `slot` in `generation`: what epoll hands back with the socket's events.
    static func token(slot: Int, generation: UInt32) -> UInt64 { UInt64(generation) << 32 | UInt64(slot) }

    /// A free slot (a freed one first) and its current generation, not yet holding anything: `fill` it, or
    /// `release` it when the registration fails.
    mutating func reserve() -> (slot: Int, generation: UInt32) {
        if let free = freeSlots.popLast() { return (free, generations[free]) }
        items.append(nil)
        generations.append(0)
        return (items.count - 1, 0)
    }

    /// Puts `item` in the reserved `slot`.
    mutating func fill(_ slot: Int, with item: Item) { items[slot] = item }

    /// Gives back a reserved slot that was never filled (its generation stays: nothing can name it yet).
    mutating func release(_ slot: Int) { freeSlots.append(slot) }

    /// Empties `slot`; its generation moves on, so tokens and deadlines of the old item find nothing.
    mutating func remove(_ slot: Int) {
        items[slot] = nil
        generations[slot] &+= 1
        freeSlots.append(slot)
    }

    /// The item in `slot` if it is still of `generation`.
    func item(slot: Int, generation: UInt32) -> Item? {
        guard generations[slot] == generation else { return nil }
        return items[slot]
    }

    /// The item a token from epoll names, if it is still there (never the wake-up token's).
    func item(token: UInt64) -> Item? {
        item(slot: Int(token & 0xFFFF_FFFF), generation: UInt32(token >> 32))
    }
}
