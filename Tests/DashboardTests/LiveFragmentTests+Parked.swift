import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Parked polls that hold no task (issue 46 point 2): the app answers a waiting poll `Answer.parked`, and the wait
/// delivers the handler's answer through a callback when the data changes, or at once when it is interrupted.
extension LiveFragmentTests {
    /// The app's answer to a waiting poll of `target` whose browser has `tag`.
    func parkedAnswer(_ target: String, _ tag: String, from peer: String = "127.0.0.10:4000") throws -> ParkedAnswer {
        let answer = try app.responder.respond(
            to: Request(
                method: .get, target: target,
                headers: HTTPHeaders([
                    ("Host", "127.0.0.1:8000"), ("If-None-Match", tag), ("Prefer", "wait=25"),
                ])),
            context: RequestContext(requestID: "t", logger: .silent, peer: IPAddress(peer)))
        guard case .parked(let parked) = answer else {
            Issue.record("a waiting poll is answered \(answer), not parked")
            throw CancellationError()
        }
        return parked
    }

    @Test func aWaitingPollIsParkedWithoutATaskAndDeliveredTheChange() async throws {
        let tag = try #require(try await get("/fragments/habits/Yoga").headers["ETag"])
        let parked = try parkedAnswer("/fragments/habits/Yoga", tag)
        let delivered = Mutex<Response?>(nil)
        _ = parked.start { result in delivered.withLock { $0 = try? result.get() } }
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        #expect(app.parkedPolls.counts.held == 1)
        data.logYoga(4)
        clock.advance(by: .seconds(0.25))  // the ticker's next refresh sees the change
        await eventually("delivered") { delivered.withLock { $0 != nil } }
        let response = try #require(delivered.withLock { $0 })
        #expect(response.status == .ok)
        #expect(response.headers["ETag"] != tag)
        #expect(response.headers["Preference-Applied"] == "wait=25")
        // The app's middleware still applies to what the wait delivers.
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(app.parkedPolls.counts.held == 0)
    }

    @Test func aSettingsChangeThatLeavesTheFragmentAloneParksThePollAgain() async throws {
        let tag = try #require(try await get("/fragments/habits/Yoga").headers["ETag"])
        let parked = try parkedAnswer("/fragments/habits/Yoga", tag)
        let delivered = Mutex<Response?>(nil)
        let interrupt = parked.start { result in delivered.withLock { $0 = try? result.get() } }
        await eventually("parked") { [snapshots] in snapshots.metrics.parked == 1 }
        let generation = snapshots.generation
        app.state.settingsChanged()
        await eventually("parked again") { [snapshots] in
            snapshots.metrics.parked == 1 && snapshots.generation > generation
        }
        #expect(delivered.withLock { $0 == nil })
        interrupt()
        let response = try #require(delivered.withLock { $0 })
        #expect(response.status == .notModified)
        #expect(response.headers["Preference-Applied"] == "wait=25")
        #expect(snapshots.metrics.parked == 0)
        #expect(app.parkedPolls.counts.held == 0)
    }

    @Test func anInterruptedParkedPollIsDeliveredItsNotModifiedAtOnce() async throws {
        let tag = try #require(try await get("/fragments/home").headers["ETag"])
        let parked = try parkedAnswer("/fragments/home", tag)
        let delivered = Mutex<Response?>(nil)
        let interrupt = parked.start { result in delivered.withLock { $0 = try? result.get() } }
        #expect(snapshots.metrics.parked == 1)
        interrupt()
        // At once, on the interrupting thread: the connection writes it in the same round.
        let response = try #require(delivered.withLock { $0 })
        #expect(response.status == .notModified)
        #expect(snapshots.metrics.parked == 0)
        #expect(app.parkedPolls.counts.held == 0)
    }
}
