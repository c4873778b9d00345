import Foundation
import HTTPServer

extension DashboardApp {
    /// Answers a live fragment for `live.js` (SPEC §6, issue 9).
    ///
    /// `fragment` gives the fragment for a view and the browser's settings (from the render cache, rendered once
    /// per key). When `If-None-Match` names its ETag the answer is 304, unless the request prefers to wait
    /// (`Prefer: wait=N`, RFC 7240): then it is parked until the view changes (a new snapshot version, the stale
    /// notice, or a settings change) and answered 200 once the fragment really differs, or 304 after N seconds. A
    /// poll that cannot be parked (too many wait already, or the server is stopping) is answered at once.
    func liveFragment(
        _ request: Request, _ fragment: (SnapshotView, Settings) throws -> RenderCache.Entry
    ) async throws -> Response {
        let wait = PreferWait.seconds(in: request)
        let deadline = wait.map { snapshots.now + .seconds($0) }
        var applied: Int?
        while true {
            let view = try await snapshots.view(live: true)
            let browser = try await settings.load(for: request)
            let entry = try fragment(view, browser)
            guard hasCurrentCopy(request, of: entry) else {
                return Self.withPreferenceApplied(ok(entry, request), applied)
            }
            guard let wait, let deadline else { return notModified(entry, request) }
            let remaining = snapshots.now.duration(to: deadline)
            guard remaining > .zero else { return Self.withPreferenceApplied(notModified(entry, request), applied) }
            switch await snapshots.park(after: view.generation, timeout: remaining) {
            case .changed:
                applied = wait
            case .timedOut:
                return Self.withPreferenceApplied(notModified(entry, request), wait)
            case .refused:
                return Self.withPreferenceApplied(notModified(entry, request), applied)
            }
        }
    }

    /// Says which wait was honoured (RFC 7240 §3), so a client can tell a held answer from an immediate one.
    private static func withPreferenceApplied(_ response: Response, _ wait: Int?) -> Response {
        guard let wait else { return response }
        var response = response
        response.headers.add(name: "Preference-Applied", value: "wait=\(wait)")
        return response
    }
}
