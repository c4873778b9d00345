import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import HTTPServer

/// Answers given now on the event loop (`Answer.now`, issue 21): the router's routing, and the connection writing
/// them in order with the awaited ones.
@Suite struct AtOnceTests {
    /// `/now/:word` answers now; `/later/:word` is awaited; `/maybe/:word` answers now only for "yes".
    static var router: Router {
        var router = Router()
        router.get(
            "/now/:word", answering: { _, context in .now(.text("now " + (try context.parameters.require("word")))) })
        router.get("/later/:word") { _, context in .text("later " + (try context.parameters.require("word"))) }
        router.get("/bad", answering: { _, _ in throw HTTPError(.badRequest, "refused at once") })
        router.get(
            "/maybe/:word",
            answering: { _, context in
                let word = try context.parameters.require("word")
                return word == "yes" ? .now(.text("at once")) : .later { .text("awaited") }
            })
        return router
    }

    /// The router's answer when it is given now; nil when it is work for later.
    func atOnce(_ target: String, method: HTTPMethod = .get) throws -> Response? {
        let answer = try Self.router.respond(
            to: Request(method: method, target: target, headers: ["Host": "x"]),
            context: RequestContext(requestID: "t", logger: .silent))
        guard case .now(let response) = answer else { return nil }
        return response
    }

    @Test func theRouterGivesTheRoutesAnswerAtOnceWithItsParameters() throws {
        #expect(try atOnce("/now/a")?.body == Array("now a".utf8))
        #expect(try atOnce("/now/a", method: .head)?.body == Array("now a".utf8))
        #expect(try atOnce("/maybe/yes")?.body == Array("at once".utf8))
    }

    @Test func aRouteWithoutAnAnswerAtOnceIsLeftToItsHandler() throws {
        #expect(try atOnce("/later/a") == nil)
        #expect(try atOnce("/maybe/no") == nil)
    }

    @Test func theRoutersOwnAnswersComeAtOnce() throws {
        #expect(try atOnce("/nowhere")?.status == .notFound)
        #expect(try atOnce("/now/a", method: .post)?.status == .methodNotAllowed)
        #expect(throws: HTTPError.self) { try atOnce("/now/%zz") }
    }

    @Test func anAnswerAtOnceIsWhatTheConnectionWrites() async throws {
        try await LiveServer.with(responder: Self.router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /now/a HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.text == "now a")
            #expect(response.headers["Date"] != nil)
            try client.send("GET /bad HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = try await client.readResponse()
            #expect(refused.status == 400 && refused.text == "refused at once")
        }
    }

    @Test func pipelinedAnswersAtOnceAndAwaitedOnesStayInOrder() async throws {
        try await LiveServer.with(responder: Self.router) { server in
            let client = try TestClient(port: server.port)
            try client.send(
                "GET /now/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /later/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /maybe/no HTTP/1.1\r\nHost: x\r\n\r\nGET /now/4 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "now 1")
            #expect(try await client.readResponse().text == "later 2")
            #expect(try await client.readResponse().text == "awaited")
            #expect(try await client.readResponse().text == "now 4")
        }
    }

    /// Each answer at once parses the next pipelined request, which is answered at once in turn: in a loop, not
    /// nested (900 of them would otherwise be 900 frames deep).
    @Test func manyPipelinedAnswersAtOnceAreAllWrittenInOrder() async throws {
        try await LiveServer.with(responder: Self.router) { server in
            let client = try TestClient(port: server.port)
            let count = 900
            try client.send((0..<count).map { "GET /now/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for index in 0..<count {
                let response = try await client.readResponse()
                guard response.text == "now \(index)" else {
                    Issue.record("response \(index) was '\(response.text)'")
                    return
                }
            }
        }
    }
}
