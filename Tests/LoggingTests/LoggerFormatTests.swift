import Foundation
import Testing

@testable import Logging

/// Issue 20: `--log-format json` (one object per line, the logfmt line's keys) and `--log-level`.
@Suite struct LoggerFormatTests {
    func jsonLine(_ metadata: [String: String], message: String = "log habit failed") throws -> [String: String] {
        let (logger, capture) = Logger.capturing(label: "app", format: .json)
        logger.warning(message, metadata)
        let line = try #require(capture.lines.first)
        #expect(!line.contains("\n") && !line.contains("\r"))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    }

    @Test func jsonHasTheLogfmtLinesKeys() throws {
        let (logger, capture) = Logger.capturing(label: "app")
        let json = Logger(label: "app", level: .debug, format: .json, sink: { line, _ in capture.append(line) })
        logger.notice("listening", ["net.port": "8000", "url": "http://127.0.0.1:8000/"])
        json.notice("listening", ["net.port": "8000", "url": "http://127.0.0.1:8000/"])
        let logfmt = capture.lines[0]
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(capture.lines[1].utf8)) as? [String: String])
        #expect(object["level"] == "notice" && object["label"] == "app" && object["message"] == "listening")
        #expect(object["net.port"] == "8000" && object["url"] == "http://127.0.0.1:8000/")
        #expect(logfmt.contains(" notice app: listening net.port=8000 url=http://127.0.0.1:8000/"))
        #expect(try #require(object["time"]).count == String(logfmt.prefix { $0 != " " }).count)
        #expect(
            capture.lines[1].hasPrefix(#"{"time":""#) && capture.lines[1].hasSuffix(#""url":"http://127.0.0.1:8000/"}"#)
        )
    }

    /// Values come from requests: quotes, backslashes, line breaks and control or bidi characters must come back
    /// out of a JSON parser as the same text, on one line, and never reach a terminal raw.
    @Test(arguments: [
        "say \"hi\"", #"C:\path\"#, "line1\nline2\r\n", "tab\there", "nul\u{0}bell\u{7}esc\u{1B}[31m",
        "del\u{7F}c1\u{85}", "ls\u{2028}ps\u{2029}", "bidi\u{202E}txt\u{2066}", "Café 😀 </script>",
        "}{\"forged\":\"1",
    ])
    func jsonEscapingRoundTripsHostileValues(value: String) throws {
        let object = try jsonLine(["habit.name": value], message: value)
        #expect(object["habit.name"] == value)
        #expect(object["message"] == value)
        #expect(object["forged"] == nil)
    }

    @Test func escapesUnsafeScalarsAsUnicodeEscapes() {
        #expect(Logger.jsonString("a\u{1B}b\u{202E}c\u{2028}") == #""a\u001bb\u202ec\u2028""#)
        #expect(Logger.jsonString("q\"b\\n\n") == #""q\"b\\n\n""#)
        #expect(Logger.jsonString("Café😀") == "\"Café😀\"")
    }

    /// Metadata cannot overwrite the fixed keys (a `message` key from a caller would otherwise forge the event).
    @Test func metadataNamedLikeAFixedKeyIsLeftOut() throws {
        let object = try jsonLine(["level": "debug", "message": "x", "other": "1"])
        #expect(object["level"] == "warning" && object["message"] == "log habit failed" && object["other"] == "1")
    }

    @Test(arguments: Logger.Level.allCases)
    func aLevelWritesItselfAndWhatIsAboveIt(level: Logger.Level) {
        let (base, capture) = Logger.capturing(label: "app")
        var logger = base
        logger.level = level
        for each in Logger.Level.allCases { logger.log(each, "event") }
        let written = capture.lines.map { String($0.split(separator: " ")[1]) }
        #expect(written == Logger.Level.allCases.filter { $0 >= level }.map(\.description))
    }
}

/// Issue 48 point 6: a value from a request is logged escaped and cut, so one request cannot write kilobytes of log.
@Suite struct LoggerValueBoundTests {
    @Test(arguments: [Logger.Format.logfmt, .json])
    func aLongValueIsCutOnAScalarBoundaryAndWhatWasCutIsCounted(format: Logger.Format) throws {
        let (logger, capture) = Logger.capturing(format: format)
        let name = String(repeating: "é", count: 200) + "\u{1b}[31m" + String(repeating: "x", count: 5000)
        logger.warning("log habit failed", ["habit.name": name])
        let line = try #require(capture.lines.first)
        #expect(line.utf8.count < 400 + Logger.maxValueBytes, "\(line.utf8.count) bytes")
        // 200 "é" are 400 bytes: 128 of them fit, and the rest of the value is counted, not written.
        #expect(line.contains(String(repeating: "é", count: 128) + "…(+\(name.utf8.count - 256) bytes)"))
        #expect(!line.contains("\u{1b}"))
    }

    @Test func aShortPlainValueIsWrittenAsItIs() throws {
        let (logger, capture) = Logger.capturing()
        logger.info("habit logged", ["habit.name": "Yoga"])
        #expect(try #require(capture.lines.first).hasSuffix(" habit.name=Yoga"))
    }
}
