import Synchronization

/// Cookie values whose signature checked out, with the browser id they name, so a browser's every request after the
/// first costs a dictionary lookup instead of an HMAC (a visible share of a cached page's CPU time, issue 9).
///
/// Only values `CookieSigner` accepted are ever added, so a forged value is checked in full every time. Bounded:
/// past `capacity` values the memo starts over.
final class VerifiedCookies: Sendable {
    /// What one remembered value costs, about: a cookie value (~60 bytes), its id and the dictionary's slot.
    static let bytesPerValue = 160

    /// Most values remembered (4096: about 640 KB).
    let capacity: Int
    private let memo = Mutex<[String: BrowserID]>([:])

    /// An empty memo.
    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The id `value` names if it was verified before; nil when it was not (check it with the signer).
    func id(for value: String) -> BrowserID? { memo.withLock { $0[value] } }

    /// Remembers that `value`, checked by the signer, names `id`.
    func remember(_ value: String, names id: BrowserID) {
        memo.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[value] = id
        }
    }

    /// How many values are remembered (for tests).
    var count: Int { memo.withLock { $0.count } }
}
