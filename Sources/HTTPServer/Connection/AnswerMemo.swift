/// The reusable answers of one server on one event loop in the current epoch (no lock: only the loop's thread touches
/// it; each server has its own, `PerLoop`, so servers sharing the loops never see each other's), found by the
/// request head's hash and given again to the same request head from the same peer: a warm page's answer then costs
/// a comparison instead of the middleware, the router, the cookie and settings look-ups and the render key (about a
/// third of a warm page's CPU, issue 21).
///
/// Only a GET or HEAD without a body is looked up or kept. Every entry is of one epoch; the first lookup in a new
/// one empties the memo, so it holds at most what was answered since, within `byteBudget`.
struct AnswerMemo {
    /// A server's memo on one loop, reached only from that loop's thread (the invariant behind `@unchecked
    /// Sendable`): `Connection.Environment` holds one per loop of `EventLoopGroup.shared`, by `EventLoop.index`.
    final class PerLoop: @unchecked Sendable {
        /// Without the runtime exclusivity check, as `Connection`'s loop-thread state.
        @exclusivity(unchecked) var memo = AnswerMemo()
    }

    private struct Entry {
        let head: RequestHead
        let peer: IPAddress?
        let response: Response
    }

    /// Slots, chosen by the head's hash; a collision replaces the older entry.
    static let slotCount = 64
    /// The body bytes the entries may hold beyond what the responder's own caches share with them.
    static let byteBudget = 1 << 20

    private var epoch: UInt64?
    private var slots: [Entry?] = Array(repeating: nil, count: AnswerMemo.slotCount)
    private var bytes = 0
    private var isEmpty = true
    /// Answers given from the memo, and answers kept (for tests).
    private(set) var hits = 0
    private(set) var kept = 0

    /// The answer kept for `request` from `peer` in `epoch`, or nil. A new epoch drops every entry.
    mutating func answer(to request: Request, from peer: IPAddress?, in epoch: UInt64) -> Response? {
        guard epoch == self.epoch else {
            clear(for: epoch)
            return nil
        }
        guard Self.isCandidate(request), let entry = slots[Self.slot(of: request)],
            entry.peer == peer, entry.head == request.head
        else { return nil }
        hits += 1
        return entry.response
    }

    /// Keeps `response` for `request` from `peer` when it says it is reusable and was made in the memo's epoch
    /// (`epoch` was read before the responder was asked, so an answer made from later data is not kept under it).
    mutating func keep(_ response: Response, for request: Request, from peer: IPAddress?, in epoch: UInt64) {
        guard response.isReusable, epoch == self.epoch, Self.isCandidate(request) else { return }
        let index = Self.slot(of: request)
        let released = slots[index]?.response.body.count ?? 0
        guard bytes - released + response.body.count <= Self.byteBudget else { return }
        bytes += response.body.count - released
        slots[index] = Entry(head: request.head, peer: peer, response: response)
        isEmpty = false
        kept += 1
    }

    private mutating func clear(for epoch: UInt64) {
        self.epoch = epoch
        guard !isEmpty else { return }
        slots = Array(repeating: nil, count: Self.slotCount)
        bytes = 0
        isEmpty = true
    }

    private static func isCandidate(_ request: Request) -> Bool {
        (request.method == .get || request.method == .head) && request.body.isEmpty
    }

    /// By the target and every field value, in order: clients asking for one page differ in their cookies (and wrk's
    /// two threads in the order of the same fields), so a slot by the target alone was taken in turns by each.
    private static func slot(of request: Request) -> Int {
        var hasher = Hasher()
        hasher.combine(request.head.target)
        for field in request.head.headers.fields { hasher.combine(field.value) }
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(slotCount))
    }
}
