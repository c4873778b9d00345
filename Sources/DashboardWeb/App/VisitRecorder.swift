import DashboardCore
import HTTPServer
import Synchronization

extension DashboardApp {
    /// `response` with the last-visit cookie renewed when `LastVisit` says so, for a browser that has settings (its
    /// cookie verified to `browserID`, issue 22 point 4): a cookie, so a page view writes nothing to disk. A settings
    /// cookie that came under its pre-`__Host-` name is reissued under the new one here (issue 48 point 2).
    func recordingVisit(
        _ response: Response, _ request: Request, _ context: RequestContext, browserID: BrowserID?
    ) -> Response {
        guard browserID != nil, let signer = settings.signers.current else { return response }
        var response = response
        settings.reissuingLegacyCookie(request, into: &response)
        let now = ActivityHistory.second(state.date)
        let scope = settings.cookies
        guard
            LastVisit.needsRenewal(
                previous: LastVisit.second(of: request, scope: scope, signer: signer, verified: verifiedVisits),
                now: now)
        else {
            return response
        }
        let isHTTPS = settings.site.site(of: request, peer: context.peer)?.isHTTPS ?? false
        response.headers.add(
            name: "Set-Cookie",
            value: visitCookies.value(for: now, secure: isHTTPS) {
                LastVisit.cookie(now: now, signer: signer, scope: scope, isHTTPS: isHTTPS).headerValue
            })
        if let legacy = scope.legacyVisitName, !request.cookies(named: legacy, limit: 1).isEmpty {
            response.setCookie(scope.deletion(of: legacy))
        }
        return response
    }

    /// Home's "since your last visit" for a browser away 30 minutes or more, with favourites or follows; nil else.
    func sinceLastVisit(_ request: Request, _ view: SnapshotView, _ browser: Settings) -> SinceLastVisit? {
        guard !browser.favoriteHabits.isEmpty || !browser.followedUserIDs.isEmpty, let signer = settings.signers.current
        else { return nil }
        let now = ActivityHistory.second(activity.pageDate(now: state.date))
        let previous = LastVisit.second(
            of: request, scope: settings.cookies, signer: signer, verified: verifiedVisits)
        guard let previous, LastVisit.isAway(previous: previous, now: now) else { return nil }
        return SinceLastVisit(
            snapshot: view.snapshot, settings: browser, lastVisit: previous, now: now,
            pastTotal: { activity.value($0, person: $1, atOrAfter: $2) }, moments: activity.moments)
    }
}

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
