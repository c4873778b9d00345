import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Parked polls by fair share (issue 23): an address holds at most its share of the parked places; a poll beyond it
/// is answered 304 after a delay with `Retry-After`; a poll the server interrupts is answered its 304 at once.
extension LiveFragmentTests {
    func poll(_ tag: String, from peer: String, activity: RequestActivity = RequestActivity()) -> Task<
        Response, any Error
    > {
        let app = app
        return Task {
            try await ScriptedApp.get(
                app, "/fragments/home", [("If-None-Match", tag), ("Prefer", "wait=25")], peer: peer,
                activity: activity)
        }
    }

    @Test func aPollBeyondItsAddresssShareIsAnsweredAfterADelayWithRetryAfter() async throws {
        let tag = try #require(try await get("/fragments/home").headers["ETag"])
        let share = app.parkedPolls.counts.held + 32
        let parked = (0..<32).map { _ in poll(tag, from: "127.0.0.10:4000") }
        await eventually("32 parked") { [snapshots] in snapshots.metrics.parked == share }
        let answered = Mutex(false)
        let app = app
        let overflow = Task {
            defer { answered.withLock { $0 = true } }
            return try await ScriptedApp.get(
                app, "/fragments/home", [("If-None-Match", tag), ("Prefer", "wait=25")], peer: "127.0.0.10:4001")
        }
        await eventually("the overflow refused a place") { app.parkedPolls.counts.overflowed == 1 }
        // Another address still finds its place.
        let other = poll(tag, from: "127.0.0.200:4000")
        await eventually("the other address parked") { [snapshots] in snapshots.metrics.parked == share + 1 }

        // The answer comes only once the delay has passed on the clock.
        var advanced = Duration.zero
        while !answered.withLock({ $0 }) {
            clock.advance(by: .milliseconds(250))
            advanced += .milliseconds(250)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(advanced >= ParkedPolls.overflowDelay)
        let answer = try await overflow.value
        #expect(answer.status == .notModified)
        #expect(answer.headers["Retry-After"] == "\(ParkedPolls.retryAfter)")
        #expect(answer.headers["Preference-Applied"] == nil)
        #expect(snapshots.metrics.parked == share + 1)
        #expect(app.parkedPolls.counts.overflowed == 1)

        snapshots.shutdown()
        for task in parked + [other] { #expect(try await task.value.status == .notModified) }
        #expect(app.parkedPolls.counts.held == 0)
    }

    /// The server makes room at its cap by cancelling a parked poll's task: it answers its 304 at once, and its
    /// place (in the store and in the quota) is free.
    @Test func anInterruptedPollIsAnsweredItsNotModifiedAtOnceAndFreesItsPlace() async throws {
        let tag = try #require(try await get("/fragments/home").headers["ETag"])
        let activity = RequestActivity()
        let task = poll(tag, from: "127.0.0.10:4000", activity: activity)
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        #expect(activity.isParked)
        task.cancel()
        let answer = try await task.value
        #expect(answer.status == .notModified)
        #expect(snapshots.metrics.parked == 0)
        #expect(app.parkedPolls.counts.held == 0)
        #expect(!activity.isParked)
    }
}
