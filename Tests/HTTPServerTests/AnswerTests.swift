import HTTPCore
import TestSupport
import Testing

@testable import HTTPServer

/// The one responder pass (issue 45 point 3): a middleware maps over an answer once, and a request that must wait is
/// admitted and routed once, its work carrying what was decided.
@Suite struct AnswerTests {
    /// A middleware that counts how often it is asked and how often it finishes an answer, and marks what it finished.
    final class Counting<Next: HTTPResponder>: HTTPResponder {
        let asked = Counter()
        let finished = Counter()
        let next: Next

        init(_ next: Next) { self.next = next }

        func respond(to request: Request, context: RequestContext) throws -> Answer {
            asked.increment()
            return try next.respond(to: request, context: context).map { [finished] response in
                finished.increment()
                var response = response
                response.headers.add(name: "X-Finished", value: "yes")
                return response
            }
        }
    }

    let context = RequestContext(requestID: "t", logger: .silent)

    @Test func mappingANowAnswerTransformsItsResponseOnceAtOnce() throws {
        let calls = Counter()
        let answer = Answer.now(.text("page")).map { response in
            calls.increment()
            var response = response
            response.headers.add(name: "X-Mapped", value: "1")
            return response
        }
        guard case .now(let response) = answer else {
            Issue.record("a mapped now answer stayed now")
            return
        }
        #expect(response.headers.values(for: "X-Mapped") == ["1"])
        #expect(calls.count == 1)
    }

    @Test func mappingALaterAnswerWrapsItsWorkAndTransformsOnceWhenTheWorkRuns() async throws {
        let worked = Counter()
        let mapped = Counter()
        let answer = Answer.later {
            worked.increment()
            return .text("page")
        }.map { response in
            mapped.increment()
            var response = response
            response.headers.add(name: "X-Mapped", value: "1")
            return response
        }
        guard case .later = answer else {
            Issue.record("a mapped later answer became now")
            return
        }
        #expect(worked.count == 0 && mapped.count == 0)
        let response = try await answer.response()
        #expect(response.headers.values(for: "X-Mapped") == ["1"])
        #expect(worked.count == 1 && mapped.count == 1)
    }

    @Test func recoverTurnsAnErrorTheWorkThrowsIntoAResponseAndLeavesNowAlone() async throws {
        let recover: @Sendable (any Error) -> Response = { _ in .text("recovered", status: .badRequest) }
        let later = Answer.later { throw HTTPError(.notFound) }.recover(recover)
        #expect(try await later.response().status == .badRequest)
        guard case .now(let now) = Answer.now(.text("fine")).recover(recover) else {
            Issue.record("a now answer stays now")
            return
        }
        #expect(now.status == .ok)
    }

    /// Through the connection: a request whose route must be awaited is asked of the middleware and routed once
    /// (the connection used to ask for an answer at once and then again for the awaited one), and its answer is
    /// finished once.
    @Test func aRequestLeftForLaterIsAdmittedRoutedAndFinishedOnce() async throws {
        let routed = Counter()
        let worked = Counter()
        var router = Router()
        router.get(
            "/cold/:word",
            answering: { _, context in
                routed.increment()
                let word = try context.parameters.require("word")
                return .later {
                    worked.increment()
                    return .text("later " + word)
                }
            })
        let responder = Counting(router)
        try await LiveServer.with(responder: responder) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /cold/a HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.text == "later a")
            #expect(response.headers["X-Finished"] == "yes")
        }
        #expect(responder.asked.count == 1)
        #expect(routed.count == 1)
        #expect(worked.count == 1)
        #expect(responder.finished.count == 1)
    }

    @Test func aRequestAnsweredNowIsAdmittedAndFinishedOnceWithoutWork() throws {
        var router = Router()
        router.get("/warm", answering: { _, _ in .now(.text("warm")) })
        let responder = Counting(router)
        let answer = try responder.respond(to: Request(method: .get, target: "/warm"), context: context)
        guard case .now(let response) = answer else {
            Issue.record("a warm route's answer stays now through the middleware")
            return
        }
        #expect(response.headers.values(for: "X-Finished") == ["yes"])
        #expect(responder.asked.count == 1 && responder.finished.count == 1)
    }
}
