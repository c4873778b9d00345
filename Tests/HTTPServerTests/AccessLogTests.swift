import Foundation
import Logging
import Testing
import Timing

@testable import HTTPServer

@Suite struct AccessLogTests {
    let request = Request(method: .get, target: "/habits/Yoga?x=1", headers: ["Host": "x"])

    /// The directly built line is the very line `Logger.info` would write, apart from the measured duration.
    @Test func directLineMatchesTheLoggersOwnFormat() throws {
        let (logger, capture) = Logger.capturing(label: "app", level: .info)
        AccessLog.request(
            request, status: .notFound, bodyBytes: 9, requestID: "3f-1a", started: .now, now: .now, logger: logger)
        let direct = try #require(capture.lines.first)
        let duration = try #require(direct.split(separator: " ").first { $0.hasPrefix("duration.ms=") })
        logger.info(
            "request",
            [
                "http.method": "GET", "http.path": "/habits/Yoga", "http.status": "404", "http.bytes": "9",
                "duration.ms": String(duration.dropFirst("duration.ms=".count)), "request.id": "3f-1a",
            ])
        let general = try #require(capture.lines.last)
        // The timestamps may straddle a second boundary; everything after them must be identical.
        #expect(direct.drop { $0 != " " } == general.drop { $0 != " " })
        #expect(
            direct.hasPrefix(DateCache.timestamp(time(nil))) || direct.hasPrefix(DateCache.timestamp(time(nil) - 1)))
    }

    @Test func loggerMetadataIsMergedIntoTheLine() throws {
        let (logger, capture) = Logger.capturing(label: "app", level: .info)
        AccessLog.request(
            request, status: .ok, bodyBytes: 1, requestID: "r1", started: .now, now: .now,
            logger: logger.with(["zone": "eu"]))
        let line = try #require(capture.lines.first)
        #expect(line.hasSuffix(" request.id=r1 zone=eu"))
        #expect(line.contains(" http.path=/habits/Yoga "))
    }

    @Test func nothingIsLoggedBelowInfo() {
        let (logger, capture) = Logger.capturing(label: "app", level: .notice)
        AccessLog.request(request, status: .ok, bodyBytes: 1, requestID: "r1", started: .now, now: .now, logger: logger)
        #expect(capture.lines.isEmpty)
    }

    @Test func durationIsTheMillisecondsBetweenTheTwoInstantsWithThreeDecimals() {
        let start = MonotonicInstant.now
        #expect(AccessLog.milliseconds(from: start, to: start + .microseconds(1_004)) == "1.004")
        #expect(AccessLog.milliseconds(from: start, to: start + .microseconds(250_070)) == "250.070")
        #expect(AccessLog.milliseconds(from: start, to: start) == "0.000")
        // An end before the start (never on one loop's clock) is no time, not a negative one.
        #expect(AccessLog.milliseconds(from: start, to: start - .milliseconds(3)) == "0.000")
    }

    @Test func theLoggedDurationRunsFromStartedToNowAndReadsNoClock() throws {
        let (logger, capture) = Logger.capturing(label: "app", level: .info)
        let started = MonotonicInstant.now - .seconds(3600)
        AccessLog.request(
            request, status: .ok, bodyBytes: 1, requestID: "r1", started: started, now: started + .microseconds(12_345),
            logger: logger)
        #expect(try #require(capture.lines.first).contains(" duration.ms=12.345 "))
    }

    @Test func valuesThatNeedQuotingAreNotPlain() {
        #expect(AccessLog.isPlain("/a/b%20c"))
        for value in ["", "a b", "a=b", "a\"b", "é"] {
            #expect(!AccessLog.isPlain(value), "\(value)")
        }
    }

    @Test func timestampMatchesFoundationsISO8601() {
        for seconds in [0, 784_111_777, 1_796_000_000] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(DateCache.timestamp(seconds) == date.formatted(.iso8601))
        }
    }

    /// Issue 20: the embedded API's requests are logged at debug, so a console at info does not show them.
    @Test func theAccessLogWritesAtTheLoggersAccessLogLevel() throws {
        let (base, capture) = Logger.capturing(label: "api", level: .info)
        var quiet = base
        quiet.accessLogLevel = .debug
        AccessLog.request(request, status: .ok, bodyBytes: 1, requestID: "r1", started: .now, now: .now, logger: quiet)
        #expect(capture.lines.isEmpty)
        quiet.level = .debug
        AccessLog.request(request, status: .ok, bodyBytes: 1, requestID: "r2", started: .now, now: .now, logger: quiet)
        let line = try #require(capture.lines.first)
        #expect(line.contains(" debug api: request duration.ms="))
    }

    @Test func underJSONTheAccessLogIsAJSONObjectWithTheSameFields() throws {
        let (base, capture) = Logger.capturing(label: "app", level: .info, format: .json)
        AccessLog.request(
            request, status: .notFound, bodyBytes: 9, requestID: "3f-1a", started: .now, now: .now, logger: base)
        let line = try #require(capture.lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["message"] == "request" && object["level"] == "info")
        #expect(
            object["http.method"] == "GET" && object["http.path"] == "/habits/Yoga" && object["http.status"] == "404")
        #expect(object["http.bytes"] == "9" && object["request.id"] == "3f-1a" && object["duration.ms"] != nil)
    }
}
