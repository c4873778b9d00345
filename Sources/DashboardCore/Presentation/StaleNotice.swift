import Foundation
import TemplateKit

/// "The Habits service is not answering right now. Showing data as of HH:MM:SS." (SPEC §5), the time a
/// `<time datetime="…Z">` that `live.js` shows in the browser's zone; with the day ("Mon 30 Nov, 10:31:19") when the
/// data is not from today, as after a restart with a snapshot up to 7 days old (issue 22 point 5).
public struct StaleNotice: Equatable, Sendable {
    /// The time of the data shown, `HH:MM:SS` in the server's time zone, after the day when it is not `now`'s.
    public var asOf: String
    /// The same moment for the `datetime` attribute.
    public var iso: String

    /// A notice for data fetched at `date`, seen at `now` (the injected clock's `date`: a notice reads no clock).
    public init(dataFetchedAt date: Date, timeZone: TimeZone = .current, now: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        let time = [parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0]
            .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
        if calendar.isDate(date, inSameDayAs: now) {
            asOf = time
        } else {
            var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: "en_GB"))
            style.timeZone = timeZone
            asOf = date.formatted(style.weekday(.abbreviated).day().month(.abbreviated)) + ", " + time
        }
        iso = date.formatted(.iso8601)
    }

    /// `{asOf, iso}` for `partials/stale`.
    public var templateValue: TemplateValue { ["asOf": .text(asOf), "iso": .text(iso)] }
}
