import Foundation
import TemplateKit

/// How a moment is shown (issue 22 point 5): a `<time datetime="…Z">` whose text is worded relative to now by the
/// server ("4 min ago"), which `live.js` keeps current and titles with the time in the browser's own zone. Pure: the
/// caller gives "now", so tests move it by hand.
public struct TimeText: Hashable, Sendable {
    /// Seconds since 1970 of the moment.
    public var second: Int
    /// "4 min ago", "just now", "3 h ago", "2 days ago".
    public var relative: String

    /// The moment `second`, worded relative to `now` (both seconds since 1970).
    public init(second: Int, now: Int) {
        self.second = second
        relative = Self.relative(second, now: now)
    }

    /// The wording: under a minute "just now", then whole minutes, hours (under two days) or days; a moment ahead of
    /// `now` (another clock) reads "just now".
    static func relative(_ second: Int, now: Int) -> String {
        let age = max(0, now - second)
        if age < 60 { return "just now" }
        if age < 3_600 { return "\(age / 60) min ago" }
        if age < 48 * 3_600 { return "\(age / 3_600) h ago" }
        return "\(age / 86_400) days ago"
    }

    /// `2026-12-01T10:31:19Z`: what the `datetime` attribute holds.
    public static func iso(_ second: Int) -> String {
        Date(timeIntervalSince1970: TimeInterval(second)).formatted(.iso8601)
    }

    /// `{iso, text}` for `partials/time`.
    public var templateValue: TemplateValue {
        ["iso": .text(Self.iso(second)), "text": .text(relative)]
    }
}
