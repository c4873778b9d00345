import Foundation
import Glibc
import Logging
import Testing

@testable import HTTPServer

/// Nanoseconds per request for each user-space stage of serving the benchmark page, without sockets, so
/// changes can be compared without the noise of a shared machine. Opt-in:
/// `HABITS_BENCH=1 swift test -c release --filter RequestPathBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HABITS_BENCH"] == "1"), .serialized)
struct RequestPathBenchmark {
    static let requestBytes = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)
    static let page = [UInt8](repeating: UInt8(ascii: "x"), count: 20_506)
    let count = 200_000

    func measure(_ label: String, _ body: () async -> Void) async -> Double {
        for _ in 0..<1000 { await body() }
        let start = ContinuousClock.now
        for _ in 0..<count { await body() }
        let elapsed = ContinuousClock.now - start
        let nanoseconds =
            Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        print("\(label): \(Int(nanoseconds / Double(count))) ns/request")
        return nanoseconds / Double(count)
    }

    @Test func stages() async throws {
        var router = Router()
        let page = Self.page
        router.get("/") { _, _ in .html(page) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let buffer = LogBuffer(fd: devNull)
        let logger = Logger(label: "bench", level: .info, sink: { line, _ in buffer.append(line) })
        let ids = RequestIDGenerator()
        var parser = RequestParser()
        var request: Request?

        _ = await measure("parse") {
            parser.append(Self.requestBytes)
            do {
                if case .request(let parsed) = try parser.next() { request = parsed }
            } catch {
                Issue.record("parse failed: \(error)")
            }
        }
        let parsed = try #require(request)
        var context: RequestContext?
        _ = await measure("context") {
            let id = ids.nextID().text
            context = RequestContext(
                requestID: id, logger: logger.with("request.id", id), peer: IPAddress("127.0.0.1"))
        }
        let ready = try #require(context)
        var response: Response?
        _ = await measure("respond") {
            switch ErrorResponse.answer(router, to: parsed, context: ready) {
            case .now(let now): response = now
            case .later(let work): response = await ErrorResponse.respond(work, context: ready)
            case .parked(let parked):
                response = (try? await parked.response()) ?? .text("failed", status: .internalServerError)
            }
        }
        let answer = try #require(response)
        _ = await measure("head") {
            do {
                _ = try ResponseHead.serialize(
                    answer, bodyLength: answer.body.count, close: false, keepAliveHTTP10: false,
                    date: DateCache.shared.current())
            } catch {
                Issue.record("head failed: \(error)")
            }
        }
        _ = await measure("access log") {
            AccessLog.request(
                parsed, status: answer.status, bodyBytes: answer.body.count, requestID: "ab-12",
                started: .now, now: .now, logger: logger)
        }
        _ = await measure("state") {
            var state = ConnectionState(policy: ServerConfiguration().connection, now: .now)
            state.needMoreData(parserPhase: .idle, now: .now)
            _ = state.requestReceived(keepAlive: ConnectionState.wantsKeepAlive(parsed.head), now: .now)
            _ = state.responseReady(now: .now)
            _ = state.writeFlushed(now: .now)
            _ = state.nextDeadline
        }
        buffer.flush()
    }
}
