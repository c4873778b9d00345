import Timing

/// The connections whose answers an event loop sends together at the end of its round (`Connection.roundEnded`):
/// after the round's last event, so the peers they wake find the loop's thread waiting rather than taking its core
/// from the middle of the round; or earlier, once the first of them has waited `delayBound`, since handler tasks
/// run on the loop and a round with a cold render in it (milliseconds at 100 times the data) must not hold the
/// answers before it.
///
/// A pure value, generic so tests batch plain values; the loop hands in the clock's readings.
struct FlushBatch<Item> {
    /// How long, in nanoseconds, the first queued answer may wait for the rest of its round.
    static var delayBound: Int64 { 500_000 }

    private var queued: [Item] = []
    /// The emptied array of the last batch, kept for its capacity.
    private var spare: [Item] = []
    /// When the first of `queued` was queued.
    private(set) var firstQueued = MonotonicInstant(nanoseconds: 0)

    /// An empty batch.
    init() {}

    /// Whether nothing waits to be sent.
    var isEmpty: Bool { queued.isEmpty }

    /// Queues `item`; `now` is read only when it is the first, to start the wait `isOverdue` measures.
    mutating func add(_ item: Item, now: @autoclosure () -> MonotonicInstant) {
        if queued.isEmpty { firstQueued = now() }
        queued.append(item)
    }

    /// Whether what waits has waited longer than `delayBound` at `now` (read only when something waits): the loop
    /// asks after each handler step and sends early if so.
    func isOverdue(now: @autoclosure () -> MonotonicInstant) -> Bool {
        !queued.isEmpty && now().nanoseconds(since: firstQueued) > Self.delayBound
    }

    /// Takes what waits, leaving an empty batch for what sending it queues in turn (an answer given at once as a
    /// socket drains); hand the array back with `recycle`.
    mutating func take() -> [Item] {
        var batch = spare
        spare = []
        swap(&batch, &queued)
        return batch
    }

    /// Keeps a sent batch's array for its capacity.
    mutating func recycle(_ batch: [Item]) {
        spare = batch
        spare.removeAll(keepingCapacity: true)
    }
}
