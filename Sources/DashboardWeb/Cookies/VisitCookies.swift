import Synchronization

/// The last-visit cookie's `Set-Cookie` value of the current second, signed and formatted once per second rather than
/// per page (an HMAC and the field's text cost a visible share of a warm page's CPU, issue 21): within one second
/// every renewal is the same cookie (one for https, one for http: `Secure` differs).
final class VisitCookies: Sendable {
    private let current = Mutex<(second: Int, secure: Bool, value: String)?>(nil)

    /// An empty memo.
    init() {}

    /// The value for second `now` (`Secure` or not), made by `make` when the memo holds another's.
    func value(for now: Int, secure: Bool, _ make: () -> String) -> String {
        if let value = current.withLock({ $0?.second == now && $0?.secure == secure ? $0?.value : nil }) {
            return value
        }
        let value = make()
        current.withLock { $0 = (now, secure, value) }
        return value
    }
}
