import Synchronization
import Testing

@testable import HTTPServer

@Suite struct ParkedAnswerTests {
    /// A wait that delivers what `deliver` is later called with, and counts its interruptions (it then delivers 304).
    final class Wait: Sendable {
        let deliver = Mutex<ParkedAnswer.Deliver?>(nil)
        let interruptions = Mutex(0)

        var answer: ParkedAnswer {
            ParkedAnswer { [self] deliver in
                self.deliver.withLock { $0 = deliver }
                return { [self] in
                    interruptions.withLock { $0 += 1 }
                    self.deliver.withLock { $0 }?(.success(.text("interrupted", status: .notModified)))
                }
            }
        }
    }

    @Test func aMiddlewaresMapAppliesToWhatTheWaitDeliversLater() {
        let wait = Wait()
        guard
            case .parked(let parked) = Answer.parked(wait.answer).map({ response in
                var response = response
                response.headers.add(name: "X-Mapped", value: "yes")
                return response
            })
        else { return #expect(Bool(false), "a parked answer stays parked") }
        let delivered = Mutex<Response?>(nil)
        _ = parked.start { result in delivered.withLock { $0 = try? result.get() } }
        #expect(delivered.withLock { $0 == nil })
        wait.deliver.withLock { $0 }?(.success(.text("changed")))
        #expect(delivered.withLock { $0?.headers["X-Mapped"] } == "yes")
    }

    @Test func anErrorTheWaitDeliversIsRecoveredIntoAResponse() {
        struct Gone: Error {}
        let wait = Wait()
        guard case .parked(let parked) = Answer.parked(wait.answer).recover({ _ in .text("gone", status: .notFound) })
        else { return #expect(Bool(false), "a parked answer stays parked") }
        let delivered = Mutex<Response?>(nil)
        _ = parked.start { result in delivered.withLock { $0 = try? result.get() } }
        wait.deliver.withLock { $0 }?(.failure(Gone()))
        #expect(delivered.withLock { $0?.status } == .notFound)
    }

    @Test func cancellingTheTaskThatAwaitsAParkedAnswerInterruptsTheWait() async throws {
        let wait = Wait()
        let task = Task { try await Answer.parked(wait.answer).response() }
        while wait.deliver.withLock({ $0 == nil }) { await Task.yield() }
        task.cancel()
        let response = try await task.value
        #expect(response.status == .notModified)
        #expect(wait.interruptions.withLock { $0 } == 1)
    }
}
