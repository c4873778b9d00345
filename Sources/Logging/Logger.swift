import Foundation
import Timing

/// A tiny structured logger: constant messages, data in dot-keyed metadata, one line per event.
///
/// It reaches code through `RequestContext` or a parameter, never a global. Tests use `Logger.capturing`.
public struct Logger: Sendable {
    /// Severity, lowest first.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case debug, info, notice, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// How a line is written (`--log-format`): `logfmt` for people (`<time> <level> <label>: <message> key=value…`),
    /// `json` for a log shipper (one object per line with the same keys: `time`, `level`, `label`, `message`, and
    /// the metadata's).
    public enum Format: String, Sendable, CaseIterable {
        case logfmt, json
    }

    /// Where formatted lines go, each with the logger's `source`.
    public typealias Sink = @Sendable (_ line: String, _ source: String?) -> Void

    /// The logger's label, printed first on every line.
    public var label: String
    /// The lowest level that is written.
    public var level: Level
    /// Metadata added to every line.
    public var metadata: [String: String]
    /// How lines are written.
    public var format: Format
    /// The level a server's access log writes each request at: info, or debug for a server whose every request is
    /// noise on the console (the dashboard's embedded API, polled four times a second; issue 20).
    public var accessLogLevel: Level
    package let sink: Sink
    /// The client the lines are about (a request's address, `IPAddress.clientKey`), by which the log's byte bound is
    /// shared (`LogAllowance`); nil for the server's own lines. Not written in the line.
    public var source: String?
    /// Where each line's time comes from (the wall clock: log times are read by people and other machines).
    public var clock: any TimeSource

    /// Creates a logger writing lines to `sink` (stderr by default), each stamped with `clock`'s date.
    public init(
        label: String, level: Level = .info, format: Format = .logfmt, accessLogLevel: Level = .info,
        metadata: [String: String] = [:], sink: Sink? = nil, clock: any TimeSource = SystemTimeSource()
    ) {
        self.clock = clock
        self.label = label
        self.level = level
        self.format = format
        self.accessLogLevel = accessLogLevel
        self.metadata = metadata
        self.sink = sink ?? Logger.standardError
    }

    /// Writes one line if `level` is enabled.
    public func log(_ level: Level, _ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        guard level >= self.level else { return }
        let merged = self.metadata.merging(metadata) { _, new in new }
        if format == .json {
            sink(Self.jsonLine(time: timestamp(), level: level, label: label, message: message(), merged), source)
            return
        }
        var line = "\(timestamp()) \(level) \(label): \(message())"
        for key in merged.keys.sorted() {
            line += " \(key)=\(Self.quoteIfNeeded(merged[key]!))"
        }
        sink(line, source)
    }

    /// Logs at debug level.
    public func debug(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.debug, message(), metadata)
    }
    /// Logs at info level.
    public func info(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.info, message(), metadata)
    }
    /// Logs at notice level.
    public func notice(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.notice, message(), metadata)
    }
    /// Logs at warning level.
    public func warning(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.warning, message(), metadata)
    }
    /// Logs at error level.
    public func error(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.error, message(), metadata)
    }

    /// A copy with extra metadata on every line.
    public func with(_ metadata: [String: String]) -> Logger {
        var copy = self
        copy.metadata.merge(metadata) { _, new in new }
        return copy
    }

    /// A copy with one more metadata entry on every line; what the server does per request (`request.id`),
    /// so it skips building and merging a second dictionary.
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// A logger that drops everything.
    public static let silent = Logger(label: "silent", level: .error, sink: { _, _ in })

    /// A logger whose lines are kept in memory, for tests.
    public static func capturing(
        label: String = "test", level: Level = .debug, format: Format = .logfmt,
        clock: any TimeSource = SystemTimeSource()
    ) -> (Logger, LogCapture) {
        let capture = LogCapture()
        return (
            Logger(label: label, level: level, format: format, sink: { line, _ in capture.append(line) }, clock: clock),
            capture
        )
    }

    /// Lines go through `LogBuffer.standardError`: a write per line costs more than a request at load.
    static let standardError: Sink = { line, source in
        LogBuffer.standardError.append(line, source: source)
    }

    /// The clock's date as `2026-11-29T21:26:54Z`.
    func timestamp() -> String {
        clock.date.formatted(.iso8601)
    }

    /// The value as it appears after `key=`: as it is when plain, else quoted with `\\`, `"`, CR, LF and TAB escaped
    /// and every other control or bidi scalar written as `\u{…}`.
    ///
    /// Works on Unicode scalars, never `Character`s: `"`, a space or `=` followed by a combining mark is one
    /// `Character` equal to none of them (the combining-mark bypass of `Character`-based escaping). Values come
    /// from requests (form fields, paths), so they must not end the line, forge `key=value` pairs, or reach a
    /// terminal as escape sequences (log injection).
    static func quoteIfNeeded(_ value: String) -> String {
        guard value.isEmpty || value.utf8.count > maxValueBytes || value.unicodeScalars.contains(where: needsQuoting)
        else { return value }
        return quoted(value) { "\\u{" + String($0.value, radix: 16) + "}" }
    }

    /// The most bytes of a value a line carries; past them the value is cut, on a scalar's boundary, and what was cut
    /// is counted: "…(+1234 bytes)". Values come from requests (a habit name in a form can be as long as the body),
    /// and one request must not write kilobytes of log (issue 48 point 6).
    public static let maxValueBytes = 256

    /// `value` in double quotes with `\\`, `"`, LF, CR and TAB backslash-escaped and every `isUnsafe` scalar written
    /// by `unsafe`, cut after `limit` bytes: the one escaping both formats share (logfmt writes `\u{1b}`, JSON
    /// `\u001b`), and the one JSON string escaper (`jsonString`).
    static func quoted(
        _ value: String, limit: Int = maxValueBytes, unsafe: (Unicode.Scalar) -> String
    ) -> String {
        var out = "\""
        var kept = 0
        for scalar in value.unicodeScalars {
            let size = scalar.utf8.count
            guard kept + size <= limit else {
                out += "…(+\(value.utf8.count - kept) bytes)"
                break
            }
            kept += size
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isUnsafe(scalar) {
                    out += unsafe(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func needsQuoting(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\"" || scalar == "=" || isUnsafe(scalar)
    }

    /// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidi controls that can reorder
    /// what a terminal shows ("Trojan Source").
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}

/// Lines a capturing logger has written. Invariant: `lines` is only touched under `lock`.
public final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    /// Every line so far.
    public var lines: [String] { lock.withLock { storage } }

    func append(_ line: String) { lock.withLock { storage.append(line) } }
}
