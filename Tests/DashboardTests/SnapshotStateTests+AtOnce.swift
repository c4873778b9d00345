import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// A view asked for at once (a request answered on an event loop, issue 21) is answered only when nothing needs
/// waiting, and otherwise leaves the state to the awaited request that follows.
extension SnapshotStateTests {
    @Test func withNoDataAViewAtOnceIsLaterAndChangesNothing() {
        var state = SnapshotState()
        let (answer, actions) = state.viewRequested(live: true, now: t0, date: d0, atOnce: true)
        guard case .later = answer else {
            Issue.record("expected later, got \(answer)")
            return
        }
        #expect(actions.isEmpty, "no refresh started, no tick: the awaited request does that")
        // The awaited request then starts the first refresh and waits for it, as without the attempt.
        let (awaited, started) = state.viewRequested(live: false, now: t0, date: d0)
        guard case .wait = awaited else {
            Issue.record("expected a wait, got \(awaited)")
            return
        }
        #expect(jobs(started).count == 1)
    }

    @Test func withFreshDataAViewAtOnceIsReady() {
        var state = started()
        let (answer, _) = state.viewRequested(live: false, now: at(0.1), date: date(0.1), atOnce: true)
        guard case .ready(let view) = answer else {
            Issue.record("expected ready, got \(answer)")
            return
        }
        #expect(view.snapshot.version == Self.snapshot().version)
    }
}
