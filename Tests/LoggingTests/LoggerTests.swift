import Foundation
import TestSupport
import Testing

@testable import Logging

@Suite struct LoggerTests {
    /// Logs one line with `value` under `key` and returns the part after `key=`.
    func logged(_ value: String, key: String = "habit.name") throws -> String {
        let (logger, capture) = Logger.capturing()
        logger.info("log habit failed", [key: value])
        let line = try #require(capture.lines.first)
        let start = try #require(line.range(of: " \(key)="))
        return String(line[start.upperBound...])
    }

    @Test func plainValuesAreWrittenAsTheyAre() throws {
        #expect(try logged("Push-ups/Sit-ups") == "Push-ups/Sit-ups")
    }

    @Test func valuesWithSpacesQuotesOrEqualsAreQuotedAndEscaped() throws {
        #expect(try logged(#"a "b"=c\d"#) == #""a \"b\"=c\\d""#)
    }

    /// Regression: a form field can carry CR LF; it must not start a fake log line.
    @Test func lineBreaksAreEscaped() throws {
        let value = "x\r\n2026-11-29T00:00:00Z error habits-dashboard: fake"
        #expect(try logged(value) == #""x\r\n2026-11-29T00:00:00Z error habits-dashboard: fake""#)
    }

    /// Regression: ESC sequences, NUL, C1 controls and Unicode line separators reached stderr raw (log injection into
    /// terminals and line-based collectors).
    @Test func controlCharactersAreEscapedNotWrittenRaw() throws {
        let written = try logged("a\u{1B}[31mred\u{0}b\u{85}c\u{2028}d\u{7F}e\tf\u{202E}g")
        #expect(written == #""a\u{1b}[31mred\u{0}b\u{85}c\u{2028}d\u{7f}e\tf\u{202e}g""#)
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    /// Regression: the check ran on `Character`s, and `"`, space or `=` followed by a combining mark is one Character
    /// equal to none of them (the combining-mark bypass), so a value could forge extra `key=value` pairs unquoted.
    @Test func quoteSpaceOrEqualsFollowedByACombiningMarkIsStillQuoted() throws {
        let written = try logged("x \u{301}user.id=\u{301}admin")
        #expect(written == "\"x \u{301}user.id=\u{301}admin\"")
    }

    @Test func nonASCIITextStaysReadable() throws {
        #expect(try logged("Café_walk_😀") == "Café_walk_😀")
    }

    /// The time of a line is the logger's clock's, in both formats: no line reads the machine's clock of its own.
    @Test func eachLineIsStampedWithTheLoggersClock() throws {
        let clock = ManualClock(date: Date(timeIntervalSince1970: 1_796_000_000))
        let (logger, capture) = Logger.capturing(clock: clock)
        logger.info("one")
        clock.advance(by: .seconds(61))
        var json = logger
        json.format = .json
        json.info("two")
        #expect(capture.lines[0] == "2026-11-30T00:53:20Z info test: one")
        #expect(capture.lines[1].hasPrefix(#"{"time":"2026-11-30T00:54:21Z","#))
    }
}
