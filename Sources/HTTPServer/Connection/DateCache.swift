import Glibc
import Synchronization

/// The `Date` header value (RFC 9110 §5.6.7 IMF-fixdate), formatted at most once per second.
///
/// Every response needs it; formatting a date per request is measurable at benchmark rates.
final class DateCache: Sendable {
    /// The process-wide cache (the value is the same for every server in the process).
    static let shared = DateCache()

    private let cached = Mutex<(second: Int, value: [UInt8])>((second: -1, value: []))

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for the current second, as bytes.
    func current() -> [UInt8] {
        let now = time(nil)
        return cached.withLock { cache in
            if cache.second != now {
                cache = (second: now, value: Self.format(now))
            }
            return cache.value
        }
    }

    /// Formats `seconds` since the epoch as an IMF-fixdate.
    static func format(_ seconds: Int) -> [UInt8] {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
