import HabitsAPI

/// Dashboard URLs for habits, people and profile images, with the name or id percent-encoded as one path segment.
public enum Links {
    /// `/habits/<name>`, e.g. `/habits/Push-ups%2FSit-ups`.
    public static func habit(_ name: String) -> String { "/habits/" + PathEncoding.encodePathSegment(name) }
    /// `/people/<id>`.
    public static func person(_ id: String) -> String { "/people/" + PathEncoding.encodePathSegment(id) }
    /// `/images/<id>`, the dashboard's proxy for the upstream profile image.
    public static func image(_ id: String) -> String { "/images/" + PathEncoding.encodePathSegment(id) }
}
