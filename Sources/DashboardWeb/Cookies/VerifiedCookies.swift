import DashboardCore
import Synchronization

/// Cookie values whose signature checked out, with what they name (a browser id, a last visit's second), so a
/// browser's every request after the first costs a dictionary lookup instead of an HMAC (a visible share of a cached
/// page's CPU time, issues 9 and 21). One memo per cookie, each with its own budget in `/metrics`.
///
/// Only values `CookieSigner` accepted are ever added, so a forged value is checked in full every time. Bounded in
/// entries and bytes by the one bounded cache, `LRUCache`: when full, the value used least recently is forgotten (the
/// browsers active now stay remembered, where a memo that cleared itself made every browser pay the HMAC again).
final class VerifiedCookies<Value: Sendable>: Sendable {
    /// What one remembered value costs, about, for a value of the usual length: the value (~60 bytes), its id and the
    /// table's slot. A value counts its own length plus `bytesPerEntry`.
    static var bytesPerValue: Int { 160 }
    /// What an entry costs beside its value's bytes: what it names (an id is a 32-byte string) and the table's slot
    /// and links.
    static var bytesPerEntry: Int { 100 }

    /// Most values remembered (16 384: a crowd of 10 000 browsers, issue 46).
    let capacity: Int
    /// Most bytes the remembered values cost (`capacity × bytesPerValue`, about 2.5 MB).
    let budgetBytes: Int
    private let memo: Mutex<LRUCache<String, Value>>

    /// An empty memo of at most `capacity` values and `capacity × bytesPerValue` bytes.
    init(capacity: Int = 16_384) {
        self.capacity = capacity
        self.budgetBytes = capacity * Self.bytesPerValue
        memo = Mutex(LRUCache(capacity: capacity, budgetBytes: budgetBytes))
    }

    /// What the cookie `value` names if it was verified before; nil when it was not (check it with the signer).
    func named(by value: String) -> Value? { memo.withLock { $0.value(for: value) } }

    /// Remembers that the cookie `value`, checked by the signer, names `named`.
    func remember(_ value: String, names named: Value) {
        memo.withLock { _ = $0.set(named, for: value, cost: value.utf8.count + Self.bytesPerEntry) }
    }

    /// How many values are remembered.
    var count: Int { memo.withLock { $0.count } }

    /// What the remembered values cost, for `/metrics`.
    var bytes: Int { memo.withLock { $0.bytes } }
}
