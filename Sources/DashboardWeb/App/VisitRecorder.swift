import DashboardCore
import HTTPServer

/// The last visit, kept in a signed cookie (so a page view writes nothing to disk): its renewal on the answers of
/// pages and fragments, and Home's "since your last visit".
struct VisitRecorder: Sendable {
    /// The state: its clock dates the visit.
    let state: DashboardState
    /// The browser's settings: the signer, the cookie names and the site.
    let settings: BrowserSettings
    /// The renewed last-visit cookie, once per second.
    let visitCookies = VisitCookies()
    /// Last-visit cookie values already verified, so a page's two reads of it (renewal, "since your last visit")
    /// skip the HMAC.
    let verifiedVisits = VerifiedCookies<Int>()

    /// `response` with the last-visit cookie renewed when `LastVisit` says so, for a browser that has settings (its
    /// cookie verified to `browserID`, issue 22 point 4). A settings cookie that came under its pre-`__Host-` name is
    /// reissued under the new one here (issue 48 point 2).
    func recording(
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
        let activity = state.history
        let now = ActivityHistory.second(activity.pageDate(now: state.date))
        let previous = LastVisit.second(
            of: request, scope: settings.cookies, signer: signer, verified: verifiedVisits)
        guard let previous, LastVisit.isAway(previous: previous, now: now) else { return nil }
        return SinceLastVisit(
            snapshot: view.snapshot, settings: browser, lastVisit: previous, now: now,
            pastTotal: { activity.value($0, person: $1, atOrAfter: $2) }, moments: activity.moments)
    }
}
