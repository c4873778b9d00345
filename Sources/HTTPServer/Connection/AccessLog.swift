/// The one access-log line per request (SPEC §8): method, path, status, bytes, duration, request id.
enum AccessLog {
    /// Logs a handled request at info level; nothing is formatted when info is disabled.
    ///
    /// The line is exactly what `logger.info("request", …)` writes, but built directly: the generic path
    /// (a dictionary merge, a key sort, Foundation's date formatting) cost several µs per request.
    static func request(
        _ request: Request, status: HTTPStatus, bodyBytes: Int, requestID: String, started: ContinuousClock.Instant,
        logger: Logger
    ) {
        guard logger.level <= .info else { return }
        let method = request.method.rawValue
        let path = request.path
        guard logger.metadata.isEmpty, isPlain(method), isPlain(path), isPlain(requestID) else {
            // Quoting or metadata to merge: let the logger do it the general way.
            logger.info(
                "request",
                [
                    "http.method": method, "http.path": path, "http.status": "\(status.code)",
                    "http.bytes": "\(bodyBytes)", "duration.ms": milliseconds(since: started), "request.id": requestID,
                ])
            return
        }
        // Keys in sorted order, as `Logger.log` writes them.
        var line = DateCache.shared.texts().timestamp
        line.reserveCapacity(128 + logger.label.utf8.count + path.utf8.count)
        line += " info "
        line += logger.label
        line += ": request duration.ms="
        line += milliseconds(since: started)
        line += " http.bytes="
        line += String(bodyBytes)
        line += " http.method="
        line += method
        line += " http.path="
        line += path
        line += " http.status="
        line += String(status.code)
        line += " request.id="
        line += requestID
        logger.sink(line)
    }

    /// Logs a request refused before any handler ran (parse error, deadline, connection cap).
    static func refused(status: HTTPStatus, peer: String, logger: Logger) {
        guard logger.level <= .info else { return }
        logger.info(
            "request refused",
            ["http.status": "\(status.code)", "http.bytes": "\(status.reason.utf8.count)", "net.peer": peer])
    }

    /// Milliseconds with three decimals (`0.285`), without Foundation's formatter.
    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let micro = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let fraction = micro % 1000
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return String(micro / 1000) + "." + padding + String(fraction)
    }

    /// Whether `Logger.quoteIfNeeded` would leave `value` as it is: not empty, and no space, quote, `=` or
    /// line break. Anything outside printable ASCII is left to the logger's own check.
    static func isPlain(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        for byte in value.utf8 where byte <= 0x20 || byte == 0x22 || byte == 0x3D || byte >= 0x7F {
            return false
        }
        return true
    }
}
