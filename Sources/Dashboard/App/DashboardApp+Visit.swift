import HTTPServer

extension DashboardApp {
    /// `response` with the last-visit cookie renewed when `LastVisit` says so, for a browser that has settings
    /// (issue 22 point 4): a cookie, so a page view writes nothing to disk.
    func recordingVisit(_ response: Response, _ request: Request) -> Response {
        guard settings.browserID(of: request) != nil, let signer = settings.signers.current else { return response }
        let now = ActivityHistory.second(snapshots.date)
        guard LastVisit.needsRenewal(previous: LastVisit.second(of: request, signer: signer), now: now) else {
            return response
        }
        var response = response
        response.setCookie(LastVisit.cookie(now: now, signer: signer))
        return response
    }

    /// Home's "since your last visit" for a browser away 30 minutes or more, with favourites or follows; nil else.
    func sinceLastVisit(_ request: Request, _ view: SnapshotView, _ browser: Settings) -> SinceLastVisit? {
        guard !browser.favoriteHabits.isEmpty || !browser.followedUserIDs.isEmpty, let signer = settings.signers.current
        else { return nil }
        let now = ActivityHistory.second(activity.pageDate(now: snapshots.date))
        let previous = LastVisit.second(of: request, signer: signer)
        guard let previous, LastVisit.isAway(previous: previous, now: now) else { return nil }
        return SinceLastVisit(
            snapshot: view.snapshot, settings: browser, lastVisit: previous, now: now,
            pastTotal: { activity.value($0, person: $1, atOrAfter: $2) }, moments: activity.moments)
    }
}
