import Glibc
import HTTPCore

/// The reusable answers of one server on one event loop in the current epoch (no lock: only the loop's thread touches
/// it; each server has its own, `PerLoop`, so servers sharing the loops never see each other's), found by the bytes
/// of the request head and given again to the very same bytes from the same peer: a warm page's answer then costs a
/// comparison instead of the parse, the middleware, the router, the cookie and settings look-ups and the render key
/// (issue 21). Keyed by the bytes rather than the parsed head, a hit is found before the parser runs: the request
/// kept with the answer is what the same bytes would parse to, so no request is built or freed per hit either.
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

    /// What was kept for a head: the request its bytes parse to, whether it asks to keep the connection, and the
    /// answer. A class: a hit hands the entry from the memo to the connection's action, and copying it as a struct
    /// retained each of the request's and the answer's references every time (3 % of a warm page's user-space
    /// samples in perf, issue 21).
    final class Entry: Sendable {
        let head: [UInt8]
        let peer: IPAddress?
        let request: Request
        let keepAlive: Bool
        let response: Response

        init(head: [UInt8], peer: IPAddress?, request: Request, keepAlive: Bool, response: Response) {
            self.head = head
            self.peer = peer
            self.request = request
            self.keepAlive = keepAlive
            self.response = response
        }
    }

    /// Slots, chosen by the head's hash; a collision replaces the older entry.
    static let slotCount = 64
    /// The body bytes the entries may hold beyond what the responder's own caches share with them.
    static let byteBudget = 1 << 20

    private var epoch: UInt64?
    private var slots: [Entry?] = Array(repeating: nil, count: AnswerMemo.slotCount)
    private var bytes = 0
    private var isEmpty = true
    /// The longest head kept: no head ends further into the bytes looked up.
    private var longestHead = 0
    /// The slot of the last hit, tried first.
    private var lastHit = 0
    /// Answers given from the memo, and answers kept (for tests).
    private(set) var hits = 0
    private(set) var kept = 0

    /// What was kept for the request head that `bytes` (what the peer sent, from the start of a request on) start
    /// with, from `peer` in `epoch`, or nil. A new epoch drops every entry.
    mutating func answer(toHeadOf bytes: UnsafeBufferPointer<UInt8>, from peer: IPAddress?, in epoch: UInt64) -> Entry?
    {
        guard epoch == self.epoch else {
            clear(for: epoch)
            return nil
        }
        guard !isEmpty else { return nil }
        // The slot that answered last first: clients asking for one page again and again send one head (wrk does),
        // and a kept head that the bytes start with is the whole head they start with (it ends at its first empty
        // line), so neither its end nor its hash need finding.
        if let entry = slots[lastHit], entry.peer == peer, entry.head.isPrefix(of: bytes) {
            hits += 1
            return entry
        }
        guard let terminator = LineScanner.headTerminator(in: bytes, from: 0, to: min(bytes.count, longestHead))
        else { return nil }
        let head = UnsafeBufferPointer(rebasing: bytes[0..<terminator + 4])
        let index = Self.slot(of: head)
        guard let entry = slots[index], entry.peer == peer, entry.head.isPrefix(of: head) else { return nil }
        hits += 1
        lastHit = index
        return entry
    }

    /// Keeps `response` for `request`, whose head's bytes are `head`, from `peer` when it says it is reusable and
    /// was made in the memo's epoch (`epoch` was read before the responder was asked, so an answer made from later
    /// data is not kept under it).
    mutating func keep(
        _ response: Response, for request: Request, head: [UInt8], from peer: IPAddress?, in epoch: UInt64
    ) {
        guard response.isReusable, epoch == self.epoch, Self.isCandidate(request) else { return }
        let index = head.withUnsafeBufferPointer { Self.slot(of: $0) }
        let released = slots[index]?.response.body.count ?? 0
        guard bytes - released + response.body.count <= Self.byteBudget else { return }
        bytes += response.body.count - released
        longestHead = max(longestHead, head.count)
        slots[index] = Entry(
            head: head, peer: peer, request: request, keepAlive: ConnectionState.wantsKeepAlive(request.head),
            response: response)
        isEmpty = false
        kept += 1
    }

    private mutating func clear(for epoch: UInt64) {
        self.epoch = epoch
        guard !isEmpty else { return }
        slots = Array(repeating: nil, count: Self.slotCount)
        bytes = 0
        longestHead = 0
        isEmpty = true
    }

    private static func isCandidate(_ request: Request) -> Bool {
        (request.method == .get || request.method == .head) && request.body.isEmpty
    }

    /// By every byte of the head: clients asking for one page differ in their cookies (and wrk's two threads in the
    /// order of the same fields), so a slot by the target alone was taken in turns by each. Internal for the tests,
    /// which tell a kept answer from one a later head's collision replaced.
    static func slot(of head: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(head))
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(slotCount))
    }
}

extension [UInt8] {
    /// Whether `bytes` start with these bytes.
    fileprivate func isPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !isEmpty && count <= bytes.count
            && withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 }
    }
}
