import HTTPCore
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Answers given again without asking the responder (issue 21): the per-loop memo, and the server around it.
@Suite struct AnswerMemoTests {
    let page = Response(headers: ["Content-Type": "text/html"], body: Array("<p>page</p>".utf8), isReusable: true)
    let peer = IPAddress("127.0.0.1")

    func get(_ target: String, cookie: String = "a=1", method: HTTPMethod = .get) -> Request {
        Request(method: method, target: target, headers: ["Host": "x", "Cookie": cookie])
    }

    @Test func theSameRequestFromTheSamePeerInTheSameEpochGetsTheKeptAnswer() {
        var memo = AnswerMemo()
        #expect(memo.answer(to: get("/"), from: peer, in: 7) == nil)
        memo.keep(page, for: get("/"), from: peer, in: 7)
        #expect(memo.answer(to: get("/"), from: peer, in: 7) == page)
        #expect((memo.hits, memo.kept) == (1, 1))
    }

    @Test func clientsAskingForOnePageWithTheirOwnCookiesOrFieldOrderEachKeepTheirAnswer() {
        var memo = AnswerMemo()
        _ = memo.answer(to: get("/"), from: peer, in: 1)
        let reordered = Request(method: .get, target: "/", headers: ["Cookie": "a=1", "Host": "x"])
        let requests = (0..<8).map { get("/", cookie: "a=\($0)") } + [reordered]
        for (index, request) in requests.enumerated() {
            var answer = page
            answer.body = Array("page \(index)".utf8)
            memo.keep(answer, for: request, from: peer, in: 1)
        }
        // A slot chosen by the target alone held only the last of them; by the fields too, nine heads in 64 slots
        // (the hash is seeded per process) fall in fewer than three slots about once in 10^10 runs.
        let kept = requests.enumerated().filter { index, request in
            memo.answer(to: request, from: peer, in: 1)?.body == Array("page \(index)".utf8)
        }
        #expect(kept.count >= 3)
        #expect(memo.hits == kept.count)
    }

    @Test func anotherHeaderValueTargetMethodOrPeerIsNotTheSameRequest() {
        var memo = AnswerMemo()
        _ = memo.answer(to: get("/"), from: peer, in: 7)
        memo.keep(page, for: get("/"), from: peer, in: 7)
        #expect(memo.answer(to: get("/", cookie: "a=2"), from: peer, in: 7) == nil)
        #expect(memo.answer(to: get("/?live=0"), from: peer, in: 7) == nil)
        #expect(memo.answer(to: get("/", method: .head), from: peer, in: 7) == nil)
        #expect(memo.answer(to: get("/"), from: IPAddress("127.0.0.2"), in: 7) == nil)
        #expect(memo.hits == 0)
    }

    @Test func aNewEpochDropsEveryAnswerAndAnAnswerFromAnOlderOneIsNotKept() {
        var memo = AnswerMemo()
        _ = memo.answer(to: get("/"), from: peer, in: 7)
        memo.keep(page, for: get("/"), from: peer, in: 7)
        #expect(memo.answer(to: get("/"), from: peer, in: 8) == nil)
        #expect(memo.answer(to: get("/"), from: peer, in: 7) == nil, "the entry went with its epoch")
        // Asked in 7, answered while the memo moved to 8: that answer may be made from 7's data.
        _ = memo.answer(to: get("/"), from: peer, in: 8)
        memo.keep(page, for: get("/"), from: peer, in: 7)
        #expect(memo.answer(to: get("/"), from: peer, in: 8) == nil)
    }

    @Test func onlyReusableAnswersToBodilessGetsAndHeadsAreKept() {
        var memo = AnswerMemo()
        _ = memo.answer(to: get("/"), from: peer, in: 1)
        var once = page
        once.isReusable = false
        memo.keep(once, for: get("/"), from: peer, in: 1)
        memo.keep(page, for: get("/", method: .post), from: peer, in: 1)
        var withBody = get("/")
        withBody.body = [1]
        memo.keep(page, for: withBody, from: peer, in: 1)
        #expect(memo.kept == 0)
        #expect(memo.answer(to: get("/"), from: peer, in: 1) == nil)
        #expect(memo.answer(to: get("/", method: .post), from: peer, in: 1) == nil)
    }

    @Test func bodiesBeyondTheByteBudgetAreNotKept() {
        var memo = AnswerMemo()
        _ = memo.answer(to: get("/"), from: peer, in: 1)
        var large = page
        large.body = Array(repeating: 0x61, count: AnswerMemo.byteBudget + 1)
        memo.keep(large, for: get("/"), from: peer, in: 1)
        #expect(memo.kept == 0)
        // A replaced entry gives its bytes back: the same slot may be filled again and again.
        var half = page
        half.body = Array(repeating: 0x61, count: AnswerMemo.byteBudget / 2 + 1)
        for _ in 0..<3 { memo.keep(half, for: get("/"), from: peer, in: 1) }
        #expect(memo.kept == 3)
    }

    /// A responder whose answer at once counts the calls and says which call made it.
    final class Counting: HTTPResponder {
        let calls = Atomic(0)
        let reusable: Bool

        init(reusable: Bool) { self.reusable = reusable }

        func respond(to request: Request, context: RequestContext) async throws -> Response { .text("awaited") }

        func respondAtOnce(to request: Request, context: RequestContext) throws -> Response? {
            let call = calls.add(1, ordering: .relaxed).newValue
            return Response(
                headers: ["Content-Type": "text/plain"], body: Array("call \(call)".utf8), isReusable: reusable)
        }
    }

    @Test func theServerGivesAReusableAnswerAgainUntilTheEpochMoves() async throws {
        let responder = Counting(reusable: true)
        let epoch = Atomic<UInt64>(1)
        try await LiveServer.with(
            responder: responder, answerEpoch: AnswerEpoch { epoch.load(ordering: .relaxed) }
        ) { server in
            let client = try TestClient(port: server.port)
            let request = "GET /page HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\n\r\n"
            for _ in 0..<3 {
                try client.send(request)
                #expect(try await client.readResponse().text == "call 1")
            }
            try client.send("GET /page HTTP/1.1\r\nHost: x\r\nCookie: a=2\r\n\r\n")
            #expect(try await client.readResponse().text == "call 2")
            epoch.store(2, ordering: .relaxed)
            try client.send(request)
            #expect(try await client.readResponse().text == "call 3")
            try client.send(request)
            #expect(try await client.readResponse().text == "call 3")
        }
        #expect(responder.calls.load(ordering: .relaxed) == 3)
    }

    @Test func anAnswerThatIsNotReusableOrAServerWithoutAnEpochAsksEveryTime() async throws {
        let once = Counting(reusable: false)
        try await LiveServer.with(responder: once, answerEpoch: AnswerEpoch { 1 }) { server in
            let client = try TestClient(port: server.port)
            for call in 1...2 {
                try client.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "call \(call)")
            }
        }
        let reusable = Counting(reusable: true)
        try await LiveServer.with(responder: reusable) { server in
            let client = try TestClient(port: server.port)
            for call in 1...2 {
                try client.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "call \(call)")
            }
        }
    }
}
