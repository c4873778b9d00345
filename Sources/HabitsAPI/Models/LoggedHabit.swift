import Foundation

/// One logging event, the body of `POST /loggedHabit`.
///
/// The timestamp is ISO 8601. Decoding accepts whole or fractional seconds and any offset, as the
/// original server and `JSONEncoder` variants send; encoding writes whole seconds in UTC.
public struct LoggedHabit: Codable, Hashable, Sendable {
    /// The id of the user who logged it.
    public var userID: String
    /// The habit's name.
    public var habitName: String
    /// When it happened.
    public var timestamp: Date

    /// Creates an event.
    public init(userID: String, habitName: String, timestamp: Date) {
        self.userID = userID
        self.habitName = habitName
        self.timestamp = timestamp
    }

    enum CodingKeys: String, CodingKey { case userID, habitName, timestamp }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userID = try container.decode(String.self, forKey: .userID)
        habitName = try container.decode(String.self, forKey: .habitName)
        let text = try container.decode(String.self, forKey: .timestamp)
        guard let date = Self.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .timestamp, in: container, debugDescription: "not an ISO 8601 timestamp: \(text)")
        }
        timestamp = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(habitName, forKey: .habitName)
        try container.encode(Self.formatTimestamp(timestamp), forKey: .timestamp)
    }

    /// Parses `2026-11-29T10:15:30Z`, `2026-11-29T10:15:30.250Z` or `2026-11-29T11:15:30+01:00`.
    public static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Formats a date as `2026-11-29T10:15:30Z`.
    public static func formatTimestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
