import DashboardCore
import HTTPServer
import Synchronization

/// A live poll parked without a task (issue 46 point 2): `LiveFragments` decides on the event loop that the poll
/// waits, and this carries it from there: it parks a callback in the snapshot store, looks again when the view
/// changes (parking again while its fragment is the same), and delivers the 200 or 304 the handler would have
/// returned, recording the visit and giving its parked place back.
///
/// 10 000 viewers each holding a suspended handler task cost 51–56 µs of CPU per (viewer, change) in
/// `Benchmarks/viewers.sh`, most of it the tasks' resumption and the handler run again from the top (perf).
///
/// The steps run one after another on whichever thread ends each wait; `interruption` is the only state they share
/// with the connection, which interrupts the wait to make room at its cap or as it closes.
final class ParkedPoll: Sendable {
    private let live: LiveFragments
    private let request: Request
    private let context: RequestContext
    private let fragment: LiveFragments.Fragment
    /// The seconds granted (Preference-Applied) and when they are up.
    private let wait: Int
    private let deadline: ContinuousClock.Instant
    /// The client address whose parked place this poll holds.
    private let address: String
    /// The browser whose visit the answer records.
    private let browserID: BrowserID?
    /// The current wait's interruption, and whether the connection has interrupted the poll.
    private let interruption = Mutex<(stop: (@Sendable () -> Void)?, interrupted: Bool)>((nil, false))

    /// A poll of `browserID`'s holding a place of `address`'s, waiting `wait` seconds (until `deadline`).
    init(
        live: LiveFragments, request: Request, context: RequestContext, fragment: @escaping LiveFragments.Fragment,
        wait: Int, deadline: ContinuousClock.Instant, address: String, browserID: BrowserID?
    ) {
        self.browserID = browserID
        self.live = live
        self.request = request
        self.context = context
        self.fragment = fragment
        self.wait = wait
        self.deadline = deadline
        self.address = address
    }

    /// Parks until the view moves past `generation`; `entry` is the fragment the browser has. Returns what
    /// interrupts the poll (`ParkedAnswer.start`).
    func start(
        after generation: UInt64, _ entry: RenderCache.Entry, _ deliver: @escaping ParkedAnswer.Deliver
    ) -> @Sendable () -> Void {
        context.activity.beginParking(since: live.state.clock.now)
        park(after: generation, entry, applied: nil, deliver)
        return { [self] in
            let stop = interruption.withLock { state in
                state.interrupted = true
                defer { state.stop = nil }
                return state.stop
            }
            stop?()
        }
    }

    private func park(
        after generation: UInt64, _ entry: RenderCache.Entry, applied: Int?,
        _ deliver: @escaping ParkedAnswer.Deliver
    ) {
        let stop = live.state.park(after: generation, timeout: live.state.now.duration(to: deadline)) {
            [self] outcome in
            woke(outcome, entry, applied: applied, deliver)
        }
        // Interrupted before this wait began: it ends at once (its outcome, `.timedOut`, answers the 304).
        let interrupted = interruption.withLock { state in
            if !state.interrupted { state.stop = stop }
            return state.interrupted
        }
        if interrupted { stop() }
    }

    private func woke(
        _ outcome: ParkOutcome, _ entry: RenderCache.Entry, applied: Int?, _ deliver: @escaping ParkedAnswer.Deliver
    ) {
        switch outcome {
        case .timedOut:
            finish(LiveFragments.withPreferenceApplied(live.pages.notModified(entry, request), wait), deliver)
        case .refused:
            finish(LiveFragments.withPreferenceApplied(live.pages.notModified(entry, request), applied), deliver)
        case .changed:
            let isInterrupted = interruption.withLock { $0.interrupted }
            // Read before the view, so what is kept under it was made from a view at least as new.
            let changes = live.state.changes
            let shared = browserID == nil ? WokenAnswers.Key(request, wait: wait) : nil
            if let shared, let answer = live.wokenAnswers.answer(for: shared, changes: changes) {
                return finish(answer, deliver)
            }
            guard let view = live.state.viewAtOnce(live: true), let browser = live.settings.browserAtOnce(of: request)
            else {
                // Not in memory now: the rest is awaited on a task, from a poll of its own (a rare path).
                return handOver(deliver)
            }
            let current: RenderCache.Entry
            do {
                current = try fragment(view, browser.settings)
            } catch {
                return finish(.failure(error), deliver)
            }
            if let answer = live.look(request, current, wait: wait, until: deadline, applied: wait) {
                if let shared, answer.status == .ok { live.wokenAnswers.keep(answer, for: shared, changes: changes) }
                return finish(answer, deliver)
            }
            guard !isInterrupted else {
                return finish(
                    LiveFragments.withPreferenceApplied(live.pages.notModified(current, request), wait), deliver)
            }
            park(after: view.generation, current, applied: wait, deliver)
        }
    }

    /// Gives the place back and delivers `response` with the visit recorded.
    private func finish(_ response: Response, _ deliver: ParkedAnswer.Deliver) {
        finish(.success(live.pages.visits.recording(response, request, context, browserID: browserID)), deliver)
    }

    private func finish(_ result: Result<Response, any Error>, _ deliver: ParkedAnswer.Deliver) {
        live.parkedPolls.release(address)
        context.activity.endParking()
        deliver(result)
    }

    /// Hands the poll to `LiveFragments.response` on a task, its place given back first (the task claims its own).
    private func handOver(_ deliver: @escaping ParkedAnswer.Deliver) {
        live.parkedPolls.release(address)
        context.activity.endParking()
        Task { [live, request, context, fragment] in
            do {
                deliver(.success(try await live.response(request, context, fragment)))
            } catch {
                deliver(.failure(error))
            }
        }
    }
}
