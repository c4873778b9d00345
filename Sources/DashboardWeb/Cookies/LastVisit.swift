import DashboardCore
import HTTPServer

/// When a browser was last here (issue 22 point 4): a second cookie, `habits_visit=<seconds since 1970>.<tag>`,
/// signed by the installation's `CookieSigner` under its own label, so no disk is written per page view and a time
/// made up by hand is no cookie at all.
///
/// A pure policy: pages and fragments renew it at most once a minute (`refreshAfter`), only for a browser that has
/// settings (SPEC §7: a plain GET of a new browser gets no cookie); Home shows what happened while away when the
/// previous visit is at least `awayThreshold` ago.
enum LastVisit {
    /// The cookie's name before `__Host-` (`CookieScope.visitName` is the one in use).
    static let cookieName = "habits_visit"
    /// What the tag signs besides the time.
    static let label = "habits-last-visit-v1:"
    /// Seconds before a visit cookie is renewed: a live page's polls do not set it on every answer.
    static let refreshAfter = 60
    /// Seconds away after which Home starts with a summary of the time away.
    static let awayThreshold = 30 * 60
    /// The last visit a request's cookie names, if its tag verifies; a value in `verified` was checked before, and
    /// one that checks out now is added to it (one HMAC per distinct cookie, not two per page, issue 21).
    ///
    /// Of several copies under `scope`'s name (failing those, its legacy name) the latest verified time counts: a
    /// tossed copy can only hold a time this dashboard signed, so at worst it hides "since your last visit"; junk
    /// copies are ignored (`SignedCookieChoice.limit` of them at most are checked).
    static func second(
        of request: Request, scope: CookieScope, signer: CookieSigner, verified: VerifiedCookies<Int>
    ) -> Int? {
        for name in [scope.visitName, scope.legacyVisitName].compactMap({ $0 }) {
            let seconds = request.cookies(named: name, limit: SignedCookieChoice<Int>.limit).compactMap { value in
                if let second = verified.named(by: value) { return second }
                guard let text = signer.verified(value, label: label), let second = Int(text), second >= 0 else {
                    return nil
                }
                verified.remember(value, names: second)
                return second
            }
            if let latest = seconds.max() { return latest }
        }
        return nil
    }

    /// Whether a page seen at `now` renews the cookie: none yet, a minute old, or from a clock set back.
    static func needsRenewal(previous: Int?, now: Int) -> Bool {
        guard let previous else { return true }
        return now - previous >= refreshAfter || now < previous
    }

    /// Whether Home starts with "since your last visit".
    static func isAway(previous: Int?, now: Int) -> Bool {
        previous.map { now - $0 >= awayThreshold } ?? false
    }

    /// The cookie for a visit at `now`, under `scope`'s name and path, `Secure` over https.
    static func cookie(now: Int, signer: CookieSigner, scope: CookieScope, isHTTPS: Bool) -> Cookie {
        scope.cookie(name: scope.visitName, value: signer.signed(String(now), label: label), isHTTPS: isHTTPS)
    }
}
