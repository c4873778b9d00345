import Synchronization

/// Cookie values whose signature checked out, with the browser id they name, so a browser's every request after the
/// first costs a dictionary lookup instead of an HMAC (a visible share of a cached page's CPU time, issue 9).
///
/// Only values `CookieSigner` accepted are ever added, so a forged value is checked in full every time. Bounded in
/// entries and bytes by the one bounded cache, `LRUCache`: when full, the value used least recently is forgotten (the
/// browsers active now stay remembered, where a memo that cleared itself made every browser pay the HMAC again).
final class VerifiedCookies: Sendable {
    /// What one remembered value costs, about, for a value of the usual length: the value (~60 bytes), its id and the
    /// table's slot. A value counts its own length plus `bytesPerEntry`.
    static let bytesPerValue = 160
    /// What an entry costs beside its value's bytes: the id (a 32-byte string) and the table's slot and links.
    static let bytesPerEntry = 100

    /// Most values remembered (4096).
    let capacity: Int
    /// Most bytes the remembered values cost (`capacity × bytesPerValue`, about 640 KB).
    let budgetBytes: Int
    private let memo: Mutex<LRUCache<String, BrowserID>>

    /// An empty memo of at most `capacity` values and `capacity × bytesPerValue` bytes.
    init(capacity: Int = 4096) {
        self.capacity = capacity
        self.budgetBytes = capacity * Self.bytesPerValue
        memo = Mutex(LRUCache(capacity: capacity, budgetBytes: budgetBytes))
    }

    /// The id `value` names if it was verified before; nil when it was not (check it with the signer).
    func id(for value: String) -> BrowserID? { memo.withLock { $0.value(for: value) } }

    /// Remembers that `value`, checked by the signer, names `id`.
    func remember(_ value: String, names id: BrowserID) {
        memo.withLock { _ = $0.set(id, for: value, cost: value.utf8.count + Self.bytesPerEntry) }
    }

    /// How many values are remembered.
    var count: Int { memo.withLock { $0.count } }

    /// What the remembered values cost, for `/metrics`.
    var bytes: Int { memo.withLock { $0.bytes } }
}
