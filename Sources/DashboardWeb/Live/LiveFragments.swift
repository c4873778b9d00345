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
    /// The answers of polls one change wakes, shared by those that asked the same.
    let wokenAnswers = WokenAnswers()

    /// Live fragments over `state`, with `state.parking`'s places.
    init(state: DashboardState, settings: BrowserSettings, pages: PageCaching) {
        self.state = state
        self.settings = settings
        self.pages = pages
        self.parkedPolls = ParkedPolls(state.parking)
    }

    /// What a live fragment is made from: the view and the browser's settings give its render-cache entry.
    typealias Fragment = @Sendable (SnapshotView, Versioned<Settings>) throws -> RenderCache.Entry

    /// Answers a live fragment for `live.js`.
    ///
    /// `fragment` gives the fragment for a view and the browser's settings (from the render cache, rendered once
    /// per key). When `If-None-Match` names its ETag the answer is 304, unless the request prefers to wait
    /// (`Prefer: wait=N`, RFC 7240): then it is parked until the view changes (a new snapshot version, the stale
    /// notice, or a settings change) and answered 200 once the fragment really differs, or 304 after N seconds.
    /// A poll beyond its address's fair share of the parked places (`ParkingQuota`, issue 23) is answered 304 after
    /// a short delay with `Retry-After`; one the store cannot park (shutting down) is answered at once. The server
    /// may interrupt a parked poll to make room at its connection cap: it is then answered its 304 at once.
    ///
    /// With the view and the settings in memory (nearly always) this is decided on the event loop, and a parked poll
    /// holds no task (`ParkedPoll`, issue 46 point 2); otherwise the same answer is awaited on a task (`response`).
    func answer(_ request: Request, _ context: RequestContext, _ fragment: @escaping Fragment) throws -> Answer {
        guard let view = state.viewAtOnce(live: true), let browser = settings.browserAtOnce(of: request) else {
            return .later { try await response(request, context, fragment) }
        }
        let entry = try fragment(view, browser.settings)
        let wait = PreferWait.seconds(in: request)
        let deadline = wait.map { state.now + .seconds($0) }
        if let answer = look(request, entry, wait: wait, until: deadline, applied: nil) {
            return .now(pages.visits.recording(answer, request, context, browserID: browser.id))
        }
        let address = ClientAddress.key(of: request, context: context, trustedProxies: settings.trustedProxies)
        guard let wait, let deadline, parkedPolls.claim(address) else {
            return .later {
                pages.visits.recording(
                    await overflow(entry, request, context), request, context, browserID: browser.id)
            }
        }
        let poll = ParkedPoll(
            live: self, request: request, context: context, fragment: fragment, wait: wait, deadline: deadline,
            address: address, browserID: browser.id)
        return .parked(ParkedAnswer { deliver in poll.start(after: view.generation, entry, deliver) })
    }

    /// `answer`'s response, awaited on a task: for a poll whose view or settings are not in memory.
    func response(
        _ request: Request, _ context: RequestContext, _ fragment: Fragment
    ) async throws -> Response {
        pages.visits.recording(
            try await heldFragment(request, context, fragment), request, context,
            browserID: settings.browserID(of: request))
    }

    /// One look at the fragment: the answer now (200 when the browser's copy differs, 304 when it may not wait or
    /// its wait is over), or nil when it should park. `applied`: the wait honoured so far, for Preference-Applied.
    func look(
        _ request: Request, _ entry: RenderCache.Entry, wait: Int?, until deadline: ContinuousClock.Instant?,
        applied: Int?
    ) -> Response? {
        guard pages.hasCurrentCopy(request, of: entry) else {
            return Self.withPreferenceApplied(pages.ok(entry, request), applied)
        }
        guard let wait, let deadline else { return pages.notModified(entry, request) }
        guard state.now.duration(to: deadline) > .zero else {
            return Self.withPreferenceApplied(pages.notModified(entry, request), wait)
        }
        return nil
    }

    private func heldFragment(
        _ request: Request, _ context: RequestContext, _ fragment: Fragment
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
            if let answer = look(request, entry, wait: wait, until: deadline, applied: applied) { return answer }
            guard let wait, let deadline, !Task.isCancelled else {
                return Self.withPreferenceApplied(pages.notModified(entry, request), wait)
            }
            if client == nil {
                let address = ClientAddress.key(of: request, context: context, trustedProxies: settings.trustedProxies)
                guard parkedPolls.claim(address) else { return await overflow(entry, request, context) }
                client = address
            }
            let outcome = await context.activity.parked(since: state.clock.now) {
                await state.park(after: view.generation, timeout: state.now.duration(to: deadline))
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
    static func withPreferenceApplied(_ response: Response, _ wait: Int?) -> Response {
        guard let wait else { return response }
        var response = response
        response.headers.add(name: "Preference-Applied", value: "wait=\(wait)")
        return response
    }
}
