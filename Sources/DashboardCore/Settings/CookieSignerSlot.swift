import Synchronization

/// The cookie signer, which with `--database` arrives only once the database has given the cluster's secret: a
/// dashboard that starts while the database is unreachable serves pages meanwhile (every browser with its
/// defaults: no cookie can be checked yet) and answers changes 503, rather than refusing to start or signing with a
/// key the other dashboards do not know.
public final class CookieSignerSlot: Sendable {
    private let signer: Mutex<CookieSigner?>

    /// A slot, filled already or not.
    public init(_ signer: CookieSigner? = nil) { self.signer = Mutex(signer) }

    /// The signer, once there is one.
    public var current: CookieSigner? { signer.withLock { $0 } }

    /// Puts the signer in (once the secret is known).
    public func fill(_ value: CookieSigner) { signer.withLock { $0 = value } }
}
