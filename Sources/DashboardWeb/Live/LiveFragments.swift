import DashboardCore
import Foundation
import HTTPServer

/// The live fragments `live.js` polls (SPEC §6, issue 9), held while they have not changed.
struct LiveFragments: Sendable {
    /// The state: its views, its clock and its parking.
    let state: DashboardState
    /// The browser's settings, and the trusted proxies a client's address is read through.
    let settings: BrowserSettings
    /// The cached answers (200 or 304) and the visit they record.
    let pages: PageCaching
    /// The parked places' fair share by client address (issue 23).
    let parkedPolls: ParkedPolls

    /// Live fragments over `state`, with `state.parking`'s places.
    init(state: DashboardState, settings: BrowserSettings, pages: PageCaching) {
        self.state = state
        self.settings = settings
        self.pages = pages
        self.parkedPolls = ParkedPolls(state.parking)
    }

    /// Answers a live fragment for `live.js`.
    ///
    /// `fragment` gives the fragment for a view and the browser's settings (from the render cache, rendered once
    /// per key). When `If-None-Match` names its ETag the answer is 304, unless the request prefers to wait
    /// (`Prefer: wait=N`, RFC 7240): then it is parked until the view changes (a new snapshot version, the stale
    /// notice, or a settings change) and answered 200 once the fragment really differs, or 304 after N seconds.
    /// A poll beyond its address's fair share of the parked places (`ParkingQuota`, issue 23) is answered 304 after
    /// a short delay with `Retry-After`; one the store cannot park (shutting down) is answered at once. The server
    /// may interrupt a parked poll to make room at its connection cap: it is then answered its 304 at once.
    func answer(
        _ request: Request, _ context: RequestContext,
        _ fragment: (SnapshotView, Versioned<Settings>) throws -> RenderCache.Entry
    ) async throws -> Response {
        pages.visits.recording(
            try await heldFragment(request, context, fragment), request, context,
            browserID: settings.browserID(of: request))
    }

    private func heldFragment(
        _ request: Request, _ context: RequestContext,
        _ fragment: (SnapshotView, Versioned<Settings>) throws -> RenderCache.Entry
    ) async throws -> Response {
        let wait = PreferWait.seconds(in: request)
        let deadline = wait.map { state.now + .seconds($0) }
        var applied: Int?
        var client: String?
        defer { if let client { parkedPolls.release(client) } }
        while true {
            let view = try await state.view(live: true, activity: context.activity)
            let browser = try await settings.loadVersioned(for: request)
            let entry = try fragment(view, browser)
            guard pages.hasCurrentCopy(request, of: entry) else {
                return Self.withPreferenceApplied(pages.ok(entry, request), applied)
            }
            guard let wait, let deadline else { return pages.notModified(entry, request) }
            let remaining = state.now.duration(to: deadline)
            guard remaining > .zero, !Task.isCancelled else {
                return Self.withPreferenceApplied(pages.notModified(entry, request), wait)
            }
            if client == nil {
                let address = ClientAddress.key(of: request, context: context, trustedProxies: settings.trustedProxies)
                guard parkedPolls.claim(address) else { return await overflow(entry, request, context) }
                client = address
            }
            let outcome = await context.activity.parked(since: state.clock.now) {
                await state.park(after: view.generation, timeout: remaining)
            }
            switch outcome {
            case .changed:
                applied = wait
            case .timedOut:
                return Self.withPreferenceApplied(pages.notModified(entry, request), wait)
            case .refused:
                return Self.withPreferenceApplied(pages.notModified(entry, request), applied)
            }
        }
    }

    /// A poll that may not park: 304 after `ParkedPolls.overflowDelay` (interruptible like a parked poll), with
    /// `Retry-After`, so a client over its share re-polls a few times a minute rather than at once.
    private func overflow(_ entry: RenderCache.Entry, _ request: Request, _ context: RequestContext) async -> Response {
        let until = state.now + ParkedPolls.overflowDelay
        await context.activity.parked(since: state.clock.now) { await state.pause(until: until) }
        var response = pages.notModified(entry, request)
        response.headers.replaceOrAdd(name: "Retry-After", value: "\(ParkedPolls.retryAfter)")
        return response
    }

    /// Says which wait was honoured (RFC 7240 §3), so a client can tell a held answer from an immediate one.
    private static func withPreferenceApplied(_ response: Response, _ wait: Int?) -> Response {
        guard let wait else { return response }
        var response = response
        response.headers.add(name: "Preference-Applied", value: "wait=\(wait)")
        return response
    }
}
