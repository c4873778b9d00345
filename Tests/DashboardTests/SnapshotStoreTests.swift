import Foundation
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The store over a scripted upstream and a manual clock: when it refreshes, how often, and that a page with data
/// never waits on the upstream (issue 8 point 4).
@Suite struct SnapshotStoreTests {
    let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
    let data: ScriptedData
    let store: SnapshotStore

    init() {
        let clock = clock
        data = ScriptedData()
        store = SnapshotStore(source: data, clock: clock, logger: .silent)
    }

    @Test func theFirstPageWaitsForDataAndLaterOnesReadTheSnapshot() async throws {
        let first = try await store.view()
        #expect(first.stale == nil)
        #expect(data.statisticsCalls == 1 && data.referenceCalls == 1)
        clock.advance(by: .seconds(0.1))
        let second = try await store.view()
        #expect(second.snapshot === first.snapshot)
        #expect(data.statisticsCalls == 1, "within the interval nothing is fetched")
    }

    @Test func concurrentFirstPagesShareOneRefresh() async throws {
        data.hang()
        let store = store
        let pages = (0..<20).map { _ in Task { try await store.view() } }
        await eventually("one held call") { data.heldCalls >= 1 }
        data.release()
        var versions = Set<UInt64>()
        for page in pages { versions.insert(try await page.value.snapshot.version) }
        #expect(versions.count == 1)
        #expect(data.statisticsCalls == 1)
    }

    @Test func anUnchangedAnswerBuildsNothingAndKeepsTheVersion() async throws {
        let first = try await store.view()
        clock.advance(by: .seconds(0.3))
        _ = try await store.view()
        await eventually("second refresh done") { store.metrics.idle }
        clock.advance(by: .seconds(0.3))
        let third = try await store.view()
        #expect(data.statisticsCalls >= 2)
        #expect(store.metrics.builds == 1)
        #expect(third.snapshot === first.snapshot)
    }

    @Test func aChangedAnswerBuildsANewVersion() async throws {
        let first = try await store.view()
        data.logYoga()
        await store.refreshAfterChange()
        let second = try await store.view()
        #expect(second.snapshot.version != first.snapshot.version)
        #expect(second.generation != first.generation)
        #expect(store.metrics.builds == 2)
    }

    /// Issue 8 point 4: with data in hand, a hanging upstream costs a page nothing but the first refresh after a
    /// quiet spell, which is waited for at most the page budget (40 ms, on the manual clock here).
    @Test func aHangingUpstreamNeverHoldsAPageThatHasData() async throws {
        let first = try await store.view()
        data.hang()
        clock.advance(by: .seconds(1.5))
        let store = store
        let late = Task { try await store.view() }  // data 1.5 s old: starts a refresh and waits the budget, no more
        await eventually("the page's budget timer") { clock.sleeperCount >= 1 }
        clock.advance(by: SnapshotStore.Configuration().pageWait)
        #expect(try await late.value.snapshot === first.snapshot)
        data.release()
    }

    /// A watched page's next refresh starts while the data is young; however long it takes (a loaded machine, a slow
    /// upstream), pages are answered at once from what is there rather than sent to wait for it (issue 21).
    @Test func aRefreshStartedForYoungDataIsNotWaitedForHoweverLongItTakes() async throws {
        let first = try await store.view()
        data.hang()
        clock.advance(by: .seconds(0.5))
        #expect(store.viewAtOnce()?.snapshot === first.snapshot)  // starts the refresh, which hangs
        await eventually("the refresh held upstream") { data.heldCalls >= 1 }
        clock.advance(by: .seconds(1))
        #expect(store.viewAtOnce()?.snapshot === first.snapshot, "data 1.5 s old, its refresh started at 0.5 s")
        data.release()
    }

    @Test func failuresShowTheNoticeAndBackOffExponentially() async throws {
        let start = clock.date
        _ = try await store.view()
        data.fail(with: .transport("down"))
        clock.advance(by: .seconds(0.3))
        _ = try await store.view()
        await eventually("the first failure") { store.metrics.failures == 1 }
        // Each failure doubles the pause before the next try: 0.5, 1, 2, 4 s.
        for pause in [0.5, 1, 2, 4] {
            let calls = data.statisticsCalls
            clock.advance(by: .seconds(pause * 0.9))
            _ = try await store.view()
            #expect(data.statisticsCalls == calls, "no try before the \(pause) s back-off ends")
            clock.advance(by: .seconds(pause * 0.1 + 0.001))
            _ = try await store.view()
            await eventually("the try ended") { store.metrics.idle }
            #expect(data.statisticsCalls == calls + 1, "one try after \(pause) s")
        }
        let stale = try await store.view()
        #expect(stale.stale == StaleNotice(dataFetchedAt: start, now: clock.date))
        data.fail(with: nil)
        clock.advance(by: .seconds(8.1))
        _ = try await store.view()
        await eventually("recovered") { store.metrics.idle }
        #expect(try await store.view().stale == nil)
    }

    @Test func withNoDataAFailureIsThrownAndNotRetriedDuringTheBackOff() async throws {
        data.fail(with: .transport("refused"))
        await #expect(throws: HabitsAPIError.transport("refused")) { try await store.view() }
        await #expect(throws: HabitsAPIError.transport("refused")) { try await store.view() }
        #expect(data.statisticsCalls == 1)
    }

    @Test func aLongPollIsWokenByANewVersionAndTimesOutWithout() async throws {
        let view = try await store.view(live: true)
        let store = store
        let timedOut = Task { await store.park(after: view.generation, timeout: .seconds(25)) }
        await eventually("parked") { store.metrics.parked == 1 }
        clock.advance(by: .seconds(25))
        #expect(await timedOut.value == .timedOut)

        let woken = Task { await store.park(after: view.generation, timeout: .seconds(25)) }
        await eventually("parked") { store.metrics.parked == 1 }
        data.logYoga()
        clock.advance(by: .seconds(0.25))  // the ticker runs while a poll is parked
        #expect(await woken.value == .changed)
    }

    /// Regression (issue 8, the suite hung on a loaded machine): the test saw the poll parked and moved the clock
    /// past its wait before the poll's timeout task had started; that task then slept a whole wait from the moved
    /// clock and never woke. The deadline is now fixed when the poll parks, so moving the clock at any moment after
    /// the poll counts as parked times it out.
    @Test func aParkedPollTimesOutWhenTheClockPassesItsWaitBeforeItsTimerStarts() async throws {
        let view = try await store.view(live: true)
        let store = store
        let poll = Task { await store.park(after: view.generation, timeout: .seconds(5)) }
        await eventually("parked") { store.metrics.parked == 1 }
        clock.advance(by: .seconds(5))
        // A hang guard only: the poll ends as soon as its timeout task runs, whenever that is.
        let outcome = await withTaskGroup(of: SnapshotStore.ParkOutcome?.self) { group in
            group.addTask { await poll.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(outcome == .timedOut)
    }

    @Test func shutdownAnswersParkedPollsAtOnceAndRefusesNewOnes() async throws {
        let view = try await store.view()
        let store = store
        let parked = (0..<10).map { _ in Task { await store.park(after: view.generation, timeout: .seconds(25)) } }
        await eventually("ten parked") { store.metrics.parked == 10 }
        store.shutdown()
        for poll in parked { #expect(await poll.value == .changed) }
        #expect(await store.park(after: view.generation, timeout: .seconds(25)) == .refused)
    }

    @Test func aSettingsChangeWakesEveryParkedPoll() async throws {
        let view = try await store.view()
        let store = store
        let parked = Task { await store.park(after: view.generation, timeout: .seconds(25)) }
        await eventually("parked") { store.metrics.parked == 1 }
        store.settingsChanged()
        #expect(await parked.value == .changed)
    }
}
