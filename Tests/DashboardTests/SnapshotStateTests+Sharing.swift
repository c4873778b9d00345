import Foundation
import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The snapshot state in a cluster sharing a database (issue 19 point 4): the leader stores, followers publish what
/// it stored, with its status.
extension SnapshotStateTests {
    /// The snapshots and statuses among `actions` that the leader stores.
    func shares(_ actions: [SnapshotState.Action]) -> [(UInt64, SharedSnapshot.Status)] {
        actions.compactMap { if case .share(let snapshot, let status) = $0 { (snapshot.version, status) } else { nil } }
    }

    /// A state in `role` that fetched (leader) or followed once at `t0`.
    func sharing(_ role: RefresherRole.Role) -> SnapshotState {
        var state = SnapshotState()
        _ = state.roleChanged(to: role, now: t0)
        let (_, actions) = state.viewRequested(live: false, now: t0, date: d0)
        let outcome: SnapshotState.Outcome =
            role == .follower
            ? .followed(built: Self.snapshot(), status: SharedSnapshot.Status(stale: false, fetchedAt: d0))
            : .fetched(built: Self.snapshot(), reference: Self.reference)
        _ = state.refreshFinished(jobs(actions)[0], outcome, now: t0, date: d0)
        return state
    }

    @Test func aLeaderStoresANewVersionButNotAnUnchangedFreshOne() {
        var state = sharing(.leader)
        #expect(state.sharedVersion == Self.snapshot().version, "its first refresh stored what it fetched")
        let (_, again) = state.viewRequested(live: false, now: at(1), date: date(1))
        let unchanged = state.refreshFinished(
            jobs(again)[0], .fetched(built: nil, reference: nil), now: at(1), date: date(1))
        #expect(shares(unchanged).isEmpty)
        let (_, third) = state.viewRequested(live: false, now: at(2), date: date(2))
        let changed = state.refreshFinished(
            jobs(third)[0], .fetched(built: Self.snapshot(statistics: 2), reference: nil), now: at(2), date: date(2))
        #expect(shares(changed).map(\.0) == [Self.snapshot(statistics: 2).version])
        #expect(shares(changed).first?.1 == SharedSnapshot.Status(stale: false, fetchedAt: date(2)))
    }

    @Test func aLeaderWhoseUpstreamFailsStoresTheStaleStatusWithTheLastFetchTimeOnce() {
        var state = sharing(.leader)
        let (_, first) = state.viewRequested(live: false, now: at(1), date: date(1))
        let failed = state.refreshFinished(
            jobs(first)[0], .failed(HabitsAPIError.transport("down")), now: at(1), date: date(1))
        #expect(shares(failed).map(\.1) == [SharedSnapshot.Status(stale: true, fetchedAt: d0)])
        #expect(state.current(now: at(1), date: date(1))?.stale == StaleNotice(dataFetchedAt: d0, now: date(1)))
        let (_, second) = state.viewRequested(live: false, now: at(2), date: date(2))
        let again = state.refreshFinished(
            jobs(second)[0], .failed(HabitsAPIError.transport("down")), now: at(2), date: date(2))
        #expect(shares(again).isEmpty, "nothing moved")
    }

    @Test func aNewLeaderStoresItsStatusOnItsFirstRefreshEvenWithNothingNew() {
        var state = sharing(.follower)
        _ = state.roleChanged(to: .leader, now: at(1))
        let (_, actions) = state.viewRequested(live: false, now: at(1), date: date(1))
        let finished = state.refreshFinished(
            jobs(actions)[0], .fetched(built: nil, reference: Self.reference), now: at(1), date: date(1))
        #expect(shares(finished).map(\.0) == [Self.snapshot().version])
    }

    @Test func aFollowerShowsTheStoredStaleNoticeWithTheLeadersFetchTime() throws {
        var state = sharing(.follower)
        let stored = SharedSnapshot.Status(stale: true, fetchedAt: date(-60))
        let (_, actions) = state.viewRequested(live: false, now: at(1), date: date(1))
        let finished = state.refreshFinished(
            jobs(actions)[0], .followed(built: nil, status: stored), now: at(1), date: date(1))
        #expect(shares(finished).isEmpty, "a follower never stores")
        let view = try #require(state.current(now: at(1), date: date(1)))
        #expect(view.stale == StaleNotice(dataFetchedAt: date(-60), now: date(1)))
    }

    @Test func aPublishedVersionWakesTheParkedPollsOfAFollower() {
        var state = sharing(.follower)
        let generation = state.generation
        let (answer, _) = state.parkRequested(after: generation, now: at(1), deadline: at(26))
        guard case .wait(let id, _) = answer else {
            Issue.record("expected the poll to park")
            return
        }
        let status = SharedSnapshot.Status(stale: false, fetchedAt: date(1))
        let woken = state.snapshotPublished(Self.snapshot(statistics: 3), status: status, now: at(1))
        #expect(resumed(woken).map(\.ids) == [[id]])
        #expect(state.snapshot?.version == Self.snapshot(statistics: 3).version && state.generation != generation)
        #expect(resumed(state.snapshotPublished(nil, status: status, now: at(2))).isEmpty, "the same: nothing to wake")
    }

    @Test func onlyAFollowerPublishesWhatIsStored() {
        var state = sharing(.leader)
        let status = SharedSnapshot.Status(stale: false, fetchedAt: date(1))
        #expect(state.snapshotPublished(Self.snapshot(statistics: 3), status: status, now: at(1)).isEmpty)
        #expect(state.snapshot?.version == Self.snapshot().version)
    }

    @Test func aFollowersDemandKeepsTheLeaderRefreshingAsIfWatchedHere() {
        var state = sharing(.leader)
        let actions = state.demandReceived(watching: true, now: at(1))
        #expect(jobs(actions).count == 1)
        #expect(actions.contains { if case .tick = $0 { true } else { false } })
        #expect(state.schedule.isWatched(now: at(5.9), parked: 0))
        var follower = sharing(.follower)
        #expect(follower.demandReceived(watching: true, now: at(1)).isEmpty)
    }

    @Test func aRefreshForAChangeMadeHereIsMarkedSoAFollowerFetchesItItself() {
        var state = sharing(.follower)
        let (_, actions) = state.changeMade(now: at(0.01))
        #expect(jobs(actions).map(\.forced) == [true])
        _ = state.refreshFinished(jobs(actions)[0], .fetched(built: nil, reference: nil), now: at(0.1), date: date(0.1))
        let (_, live) = state.viewRequested(live: true, now: at(5), date: date(5))
        #expect(jobs(live).map(\.forced) == [false] && jobs(live).map(\.watched) == [true])
    }

    @Test func standaloneDropsTheStoredStatusAndJudgesForItself() throws {
        var state = sharing(.follower)
        let (_, actions) = state.viewRequested(live: false, now: at(1), date: date(1))
        _ = state.refreshFinished(
            jobs(actions)[0], .followed(built: nil, status: .init(stale: true, fetchedAt: d0)), now: at(1),
            date: date(1))
        _ = state.roleChanged(to: .standalone, now: at(1))
        #expect(state.shared == nil)
        #expect(try #require(state.current(now: at(1), date: date(1))).stale == nil)
    }
}
