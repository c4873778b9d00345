import Glibc
import Synchronization

/// The clock texts every request needs, formatted at most once per second: the `Date` header value
/// (RFC 9110 §5.6.7 IMF-fixdate) and the log timestamp (`Logger`'s ISO 8601, `2026-11-29T21:26:54Z`).
///
/// Formatting a date per request is measurable at benchmark rates; Foundation's ISO 8601 style cost
/// about 1 µs per access-log line.
final class DateCache: Sendable {
    /// The process-wide cache (the value is the same for every server in the process).
    static let shared = DateCache()

    /// The texts of one second.
    struct Texts {
        /// The `Date` header value, as bytes.
        var httpDate: [UInt8]
        /// The log timestamp.
        var timestamp: String
    }

    private let cached = Mutex<(second: Int, texts: Texts)>((second: -1, texts: Texts(httpDate: [], timestamp: "")))

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for the current second, as bytes.
    func current() -> [UInt8] {
        texts().httpDate
    }

    /// Both texts for the current second.
    func texts() -> Texts {
        texts(second: time(nil))
    }

    /// Both texts for `second` (seconds since the epoch), formatted once for all who ask in that second.
    func texts(second: Int) -> Texts {
        cached.withLock { cache in
            if cache.second != second {
                cache = (
                    second: second, texts: Texts(httpDate: Self.format(second), timestamp: Self.timestamp(second))
                )
            }
            return cache.texts
        }
    }

    /// Formats `seconds` since the epoch as an IMF-fixdate.
    static func format(_ seconds: Int) -> [UInt8] {
        let parts = utc(seconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let text =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }

    /// Formats `seconds` since the epoch as `Date().formatted(.iso8601)` does: `2026-11-29T21:26:54Z`.
    static func timestamp(_ seconds: Int) -> String {
        let parts = utc(seconds)
        return "\(1900 + parts.tm_year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    private static func utc(_ seconds: Int) -> tm {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return parts
    }

    private static func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
