import HTTPCore
import Logging
import Timing

/// The one access-log line per request (SPEC §8): method, path, status, bytes, duration, request id.
enum AccessLog {
    /// Logs a handled request at the logger's `accessLogLevel` (info unless the server's requests are noise);
    /// nothing is formatted when that level is disabled.
    ///
    /// The line is exactly what `logger.info("request", …)` writes, but built directly: the generic path
    /// (a dictionary merge, a key sort, Foundation's date formatting) cost several µs per request.
    ///
    /// With a `summer`, repeated identical answers to one `client` address within a second are summed into one line.
    /// The line's source is `client` (the log's byte bound is shared by client, issue 48 point 6).
    ///
    /// The duration runs from `started` to `now`, both the event loop's time of a round (`EventLoop.now`): the log
    /// reads no clock of its own, so an answer given in the round its request arrived in logs `0.000`, as nginx's
    /// cached clock does.
    static func request(
        _ request: Request, status: HTTPStatus, bodyBytes: Int, requestID: @autoclosure () -> String,
        started: MonotonicInstant,
        now: MonotonicInstant, logger: Logger, timestamp: String = DateCache.shared.texts().timestamp,
        client: String = "",
        summer: AccessLogSummer? = nil
    ) {
        let level = logger.accessLogLevel
        guard logger.level <= level else { return }
        let method = request.method.rawValue
        let path = request.path
        if let summer {
            let key = AccessLogSummary.Key(
                address: client, method: method, path: path, status: status.code,
                bytes: bodyBytes)
            guard summer.shouldWrite(key, at: now, logger: logger) else { return }
        }
        // Spelled out only now: a line summed needs no id.
        let requestID = requestID()
        // A path longer than a logged value may be goes the general way, which cuts it (`Logger.maxValueBytes`).
        if logger.metadata.isEmpty, logger.format == .logfmt, path.utf8.count <= Logger.maxValueBytes {
            // Keys in sorted order, as `Logger.log` writes them; built in place, one String at the end.
            let bound =
                160 + timestamp.utf8.count + logger.label.utf8.count + method.utf8.count + path.utf8.count
                + requestID.utf8.count
            let line = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer -> String? in
                var out = ByteWriter(buffer)
                out.append(timestamp)
                out.append(" ")
                out.append(level.description)
                out.append(" ")
                out.append(logger.label)
                out.append(": request duration.ms=")
                appendMilliseconds(from: started, to: now, into: &out)
                out.append(" http.bytes=")
                out.appendDecimal(bodyBytes)
                out.append(" http.method=")
                guard !method.isEmpty, out.append(method, ifEvery: isPlain) else { return nil }
                out.append(" http.path=")
                guard !path.isEmpty, out.append(path, ifEvery: isPlain) else { return nil }
                out.append(" http.status=")
                out.appendDecimal(status.code)
                out.append(" request.id=")
                guard !requestID.isEmpty, out.append(requestID, ifEvery: isPlain) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<out.count]), as: UTF8.self)
            }
            if let line {
                logger.sink(line, client.isEmpty ? nil : client)
                return
            }
        }
        // Metadata to merge, a value to quote or JSON: let the logger do it the general way.
        var logger = logger
        if !client.isEmpty { logger.source = client }
        logger.log(
            level, "request",
            [
                "http.method": method, "http.path": path, "http.status": "\(status.code)",
                "http.bytes": "\(bodyBytes)", "duration.ms": milliseconds(from: started, to: now),
                "request.id": requestID,
            ])
    }

    /// Logs a request refused before any handler ran (parse error, deadline, connection cap).
    static func refused(status: HTTPStatus, peer: String, logger: Logger) {
        guard logger.level <= .info else { return }
        logger.info(
            "request refused",
            ["http.status": "\(status.code)", "http.bytes": "\(status.reason.utf8.count)", "net.peer": peer])
    }

    /// The milliseconds from `start` to `end` with three decimals (`0.285`), without Foundation's formatter.
    static func milliseconds(from start: MonotonicInstant, to end: MonotonicInstant) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var out = ByteWriter(buffer)
            appendMilliseconds(from: start, to: end, into: &out)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<out.count]), as: UTF8.self)
        }
    }

    /// Writes the milliseconds from `start` to `end` with three decimals (at most 24 bytes; `0.000` if `end` is
    /// not after `start`).
    static func appendMilliseconds(
        from start: MonotonicInstant, to end: MonotonicInstant, into out: inout ByteWriter
    ) {
        let micro = max(0, end.nanoseconds(since: start) / 1000)
        out.appendDecimal(Int(micro / 1000))
        out.append(UInt8(ascii: "."))
        let fraction = Int(micro % 1000)
        out.append(0x30 + UInt8(fraction / 100))
        out.append(0x30 + UInt8(fraction / 10 % 10))
        out.append(0x30 + UInt8(fraction % 10))
    }

    /// Whether `Logger.quoteIfNeeded` would leave `value` as it is: not empty, and no space, quote, `=` or
    /// line break. Anything outside printable ASCII is left to the logger's own check.
    static func isPlain(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy(isPlain)
    }

    /// A byte `Logger.quoteIfNeeded` never quotes for: printable ASCII but space, `"` and `=`.
    @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != 0x22 && byte != 0x3D && byte < 0x7F
    }
}
