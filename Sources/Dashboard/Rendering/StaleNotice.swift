import Foundation
import TemplateKit

/// "The Habits service is not answering right now. Showing data as of HH:MM:SS." (SPEC §5)
public struct StaleNotice: Equatable, Sendable {
    /// The time of the data shown, `HH:MM:SS` in the server's time zone.
    public var asOf: String

    /// A notice for data fetched at `date`.
    public init(dataFetchedAt date: Date, timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        asOf = [parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0]
            .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    /// `{asOf}` for `partials/stale`.
    public var templateValue: TemplateValue { ["asOf": .text(asOf)] }
}
