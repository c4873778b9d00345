/// The one access-log line per request (SPEC §8): method, path, status, bytes, duration, request id.
enum AccessLog {
    /// Logs a handled request at info level; nothing is formatted when info is disabled (benchmarks).
    static func request(
        _ request: Request, status: HTTPStatus, bodyBytes: Int, requestID: String, started: ContinuousClock.Instant,
        logger: Logger
    ) {
        guard logger.level <= .info else { return }
        logger.info(
            "request",
            [
                "http.method": request.method.rawValue, "http.path": request.path, "http.status": "\(status.code)",
                "http.bytes": "\(bodyBytes)", "duration.ms": milliseconds(since: started), "request.id": requestID,
            ])
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
        let fraction = String(micro % 1000)
        return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
