import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The snapshot store's decisions as a pure value, driven with plain instants and dates: no task, no lock, no clock.
@Suite struct SnapshotStateTests {
    let t0 = ContinuousClock.now
    let d0 = Date(timeIntervalSince1970: 1_800_000_000)

    func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }
    func date(_ seconds: Double) -> Date { d0.addingTimeInterval(seconds) }

    static let reference = SnapshotState.Reference(
        users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories, digest: 1)

    static func snapshot(statistics: UInt64 = 1) -> Snapshot {
        Snapshot(
            inputs: SnapshotInputs(
                users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories,
                statistics: Fixture.combined),
            referenceVersion: 1, statisticsVersion: statistics, activeUserID: User.activeUserID)
    }

    /// The jobs among `actions`.
    func jobs(_ actions: [SnapshotState.Action]) -> [SnapshotState.Job] {
        actions.compactMap { if case .refresh(let job) = $0 { job } else { nil } }
    }

    /// The ids resumed by `actions`, with whether what they waited for happened.
    func resumed(_ actions: [SnapshotState.Action]) -> [(ids: [UInt64], changed: Bool)] {
        actions.compactMap { if case .resume(let ids, let changed) = $0 { (ids, changed) } else { nil } }
    }

    /// A state that fetched everything once, at `t0`, and a page's wait that ended.
    func started() -> SnapshotState {
        var state = SnapshotState()
        let (_, actions) = state.viewRequested(live: false, now: t0, date: d0)
        let job = jobs(actions)[0]
        _ = state.refreshFinished(
            job, .fetched(built: Self.snapshot(), reference: Self.reference), now: t0, date: d0)
        return state
    }

    @Test func theFirstViewWaitsForTheRefreshItStartsAndTheRefreshWakesIt() throws {
        var state = SnapshotState()
        let (answer, actions) = state.viewRequested(live: false, now: t0, date: d0)
        guard case .wait(let id, let deadline) = answer else {
            Issue.record("expected a wait")
            return
        }
        #expect(deadline == t0 + .seconds(3), "with no data at all, the wait on the upstream is bounded (issue 23)")
        let job = try #require(jobs(actions).first)
        #expect(job.fetchesReference && job.current == nil)
        let finished = state.refreshFinished(
            job, .fetched(built: Self.snapshot(), reference: Self.reference), now: at(0.1), date: date(0.1))
        #expect(resumed(finished).map(\.ids) == [[id]])
        let view = try state.waitEnded(now: at(0.1), date: date(0.1)).get()
        #expect(view.stale == nil)
        #expect(state.metrics.builds == 1 && state.metrics.completed == 1)
    }

    @Test func withNoDataAFailureIsTheAnswerUntilTheBackOffEnds() {
        var state = SnapshotState()
        let (_, actions) = state.viewRequested(live: false, now: t0, date: d0)
        _ = state.refreshFinished(jobs(actions)[0], .failed(HabitsAPIError.transport("down")), now: t0, date: d0)
        let (answer, again) = state.viewRequested(live: false, now: at(0.4), date: date(0.4))
        guard case .fail(let error) = answer else {
            Issue.record("expected the failure")
            return
        }
        #expect(error as? HabitsAPIError == .transport("down"))
        #expect(jobs(again).isEmpty, "the first retry waits 0.5 s")
    }

    @Test func aViewWithDataIsReadyAtOnceAndStartsARefreshOncePerInterval() {
        var state = started()
        let (first, actions) = state.viewRequested(live: false, now: at(0.1), date: date(0.1))
        guard case .ready = first else {
            Issue.record("expected a view")
            return
        }
        #expect(jobs(actions).isEmpty)
        let (second, later) = state.viewRequested(live: false, now: at(0.3), date: date(0.3))
        guard case .ready = second else {
            Issue.record("expected a view")
            return
        }
        #expect(jobs(later).count == 1)
    }

    @Test func oldDataWaitsThePageBudgetForAHealthyRefresh() {
        var state = started()
        let (answer, actions) = state.viewRequested(live: false, now: at(2), date: date(2))
        guard case .wait(_, let deadline) = answer else {
            Issue.record("expected a short wait")
            return
        }
        #expect(deadline == at(2) + .milliseconds(40))
        #expect(jobs(actions).count == 1)
    }

    @Test func anUnchangedAnswerKeepsTheGenerationAndAChangedOneMovesIt() {
        var state = started()
        let generation = state.generation
        let (_, actions) = state.viewRequested(live: false, now: at(0.3), date: date(0.3))
        _ = state.refreshFinished(jobs(actions)[0], .fetched(built: nil, reference: nil), now: at(0.3), date: d0)
        #expect(state.generation == generation)
        let (_, more) = state.viewRequested(live: false, now: at(0.6), date: date(0.6))
        let saved = state.refreshFinished(
            jobs(more)[0], .fetched(built: Self.snapshot(statistics: 2), reference: nil), now: at(0.6), date: d0)
        #expect(state.generation != generation)
        #expect(saved.contains { if case .save = $0 { true } else { false } })
    }

    @Test func aParkedPollWakesOnANewVersionAndNotOnAnUnchangedRefresh() throws {
        var state = started()
        let (park, _) = state.parkRequested(after: state.generation, now: at(0.1), deadline: at(25))
        guard case .wait(let id, _) = park else {
            Issue.record("expected to park")
            return
        }
        #expect(state.metrics.parked == 1)
        let (_, actions) = state.viewRequested(live: true, now: at(0.3), date: date(0.3))
        let unchanged = state.refreshFinished(
            jobs(actions)[0], .fetched(built: nil, reference: nil), now: at(0.3), date: d0)
        #expect(resumed(unchanged).isEmpty)
        let (_, more) = state.viewRequested(live: true, now: at(0.6), date: date(0.6))
        let changed = state.refreshFinished(
            jobs(more)[0], .fetched(built: Self.snapshot(statistics: 2), reference: nil), now: at(0.6), date: d0)
        #expect(resumed(changed).map(\.ids) == [[id]])
        #expect(state.metrics.parked == 0)
    }

    @Test func aPollThatSawAnOlderGenerationIsAnsweredAtOnce() {
        var state = started()
        let (answer, _) = state.parkRequested(after: state.generation &+ 7, now: at(1), deadline: at(26))
        #expect(answer == .changed)
    }

    @Test func aTimedOutPollIsResumedUnchangedOnceAndThenForgotten() {
        var state = started()
        let (park, _) = state.parkRequested(after: state.generation, now: at(0.1), deadline: at(25))
        guard case .wait(let id, _) = park else {
            Issue.record("expected to park")
            return
        }
        #expect(resumed(state.waitTimedOut(id)).map(\.changed) == [false])
        #expect(state.waitTimedOut(id).isEmpty, "already gone")
        #expect(state.metrics.parked == 0)
    }

    /// How many may park is `ParkingQuota`'s decision alone (issue 46): the state parks every poll it is given.
    @Test func everyPollIsParkedUntilShutdownAndNoneAfter() {
        var state = SnapshotState()
        for _ in 0..<600 {
            guard case .wait = state.parkRequested(after: 0, now: t0, deadline: at(25)).0 else {
                Issue.record("expected to park")
                return
            }
        }
        #expect(state.metrics.parked == 600)
        let woken = state.shutdown()
        #expect(resumed(woken).map(\.changed) == [true])
        #expect(state.parkRequested(after: 0, now: t0, deadline: at(25)).0 == .refused)
    }

    @Test func aSettingsChangeMovesTheGenerationAndWakesOnlyPolls() {
        var state = started()
        let (park, _) = state.parkRequested(after: state.generation, now: at(0.1), deadline: at(25))
        guard case .wait(let poll, _) = park else {
            Issue.record("expected to park")
            return
        }
        let (_, actions) = state.viewRequested(live: false, now: at(2), date: date(2))
        #expect(jobs(actions).count == 1)
        let before = state.generation
        #expect(resumed(state.settingsChanged()).map(\.ids) == [[poll]])
        #expect(state.generation != before)
    }

    /// A habit logged while a refresh runs waits for the next one, which starts as soon as the running one ends.
    @Test func aChangeWaitsForARefreshThatStartedAfterIt() throws {
        var state = started()
        let (_, running) = state.viewRequested(live: false, now: at(0.3), date: date(0.3))
        let (id, none) = state.changeMade(now: at(0.31))
        let waiter = try #require(id)
        #expect(jobs(none).isEmpty, "never two at once")
        let first = state.refreshFinished(
            jobs(running)[0], .fetched(built: nil, reference: nil), now: at(0.32), date: d0)
        #expect(!resumed(first).flatMap(\.ids).contains(waiter), "that refresh started before the change")
        let next = try #require(jobs(first).first, "the forced one starts at once")
        let second = state.refreshFinished(next, .fetched(built: nil, reference: nil), now: at(0.33), date: d0)
        #expect(resumed(second).flatMap(\.ids).contains(waiter))
    }

    @Test func theTickerRunsWhileWatchedAndStopsAfterTheWindow() {
        var state = started()
        let (_, actions) = state.viewRequested(live: true, now: at(0.1), date: date(0.1))
        #expect(actions.contains { if case .tick(let instant) = $0 { instant == at(0.1) } else { false } })
        let ticked = state.tick(now: at(0.3))
        #expect(jobs(ticked).count == 1)
        #expect(ticked.contains { if case .tick = $0 { true } else { false } })
        #expect(state.tick(now: at(5.2)).allSatisfy { if case .refresh = $0 { false } else { true } })
        #expect(state.tick(now: at(6)).isEmpty, "nobody watched for the 5 s window: no refresh, no next tick")
    }

    @Test func dataFromDiskIsStaleUntilARefreshConfirmsItAndIsThenSaved() {
        var state = SnapshotState(restored: (Self.snapshot(), date(-3600)))
        let (answer, actions) = state.viewRequested(live: false, now: t0, date: d0)
        guard case .wait(_, let deadline) = answer else {
            Issue.record("a first refresh is worth a wait")
            return
        }
        #expect(deadline != nil)
        #expect(state.current(now: t0, date: d0)?.stale == StaleNotice(dataFetchedAt: date(-3600), now: d0))
        let finished = state.refreshFinished(
            jobs(actions)[0], .fetched(built: nil, reference: Self.reference), now: at(0.1), date: date(0.1))
        #expect(finished.contains { if case .save(_, let fetchedAt) = $0 { fetchedAt == date(0.1) } else { false } })
        #expect(state.current(now: at(0.1), date: date(0.1))?.stale == nil)
    }

    @Test func failuresAreLoggedTheFirstTimeAndEveryTenth() {
        var state = started()
        var logged: [Int] = []
        var now = at(1)
        for _ in 0..<20 {
            let (_, actions) = state.viewRequested(live: false, now: now, date: d0)
            guard let job = jobs(actions).first else { break }
            for case .logFailure(_, let failures) in state.refreshFinished(
                job, .failed(HabitsAPIError.transport("down")), now: now, date: d0)
            {
                logged.append(failures)
            }
            now = now + .seconds(31)
        }
        #expect(logged == [1, 10, 20])
    }
}
