import HabitsAPI
import Hashing

/// Dashboard URLs for habits, people and profile images, with the name or id percent-encoded as one path segment.
///
/// Browsers (WHATWG URL) remove path segments that are `.` or `..` — also when spelled `%2E` — before they send a
/// request, so `/habits/..` would open Home. A name that is exactly one of those travels in the query after an empty
/// segment instead (`/habits/?name=..`), which DashboardWeb's `RequestParameters.route` reads back.
public enum Links {
    /// `/habits/:name`: a habit's page.
    public static let habitRoute = ItemRoute(collection: "habits", parameter: "name")
    /// `/habits/:name/favorite`: where a habit's Favorite/Unfavorite form posts.
    public static let habitFavoriteRoute = habitRoute.with(action: "favorite")
    /// `/people/:id`: a person's page.
    public static let personRoute = ItemRoute(collection: "people", parameter: "id")
    /// `/people/:id/follow`: where a person's Follow/Unfollow form posts.
    public static let personFollowRoute = personRoute.with(action: "follow")
    /// `/images/:id`: the dashboard's proxy for the upstream profile image.
    public static let imageRoute = ItemRoute(collection: "images", parameter: "id")

    /// `/habits/<name>`, e.g. `/habits/Push-ups%2FSit-ups`.
    public static func habit(_ name: String) -> String { habitRoute.path(name) }
    /// Where a habit's Favorite/Unfavorite form posts: `/habits/<name>/favorite`.
    public static func habitFavorite(_ name: String) -> String { habitFavoriteRoute.path(name) }
    /// `/people/<id>`.
    public static func person(_ id: String) -> String { personRoute.path(id) }
    /// Where a person's Follow/Unfollow form posts: `/people/<id>/follow`.
    public static func personFollow(_ id: String) -> String { personFollowRoute.path(id) }
    /// `/images/<id>`, the dashboard's proxy for the upstream profile image.
    public static func image(_ id: String) -> String { imageRoute.path(id) }

    /// The HTML id (and live `data-key`) of a person's element on a page: `p-` and a 64-bit FNV-1a digest of the
    /// id in hex, so any id gives a valid, stable fragment a redirect can name (`/people#p-…`).
    public static func elementID(person id: String) -> String { "p-" + digest(id) }
    /// The HTML id (and live `data-key`) of a habit's element on a page: `h-` and the digest of its name.
    public static func elementID(habit name: String) -> String { "h-" + digest(name) }

    /// FNV-1a over the UTF-8 bytes in hex: stable across runs and processes (unlike `Hasher`).
    private static func digest(_ value: String) -> String { FNV1a.hex(FNV1a.hash(value.utf8)) }

    /// Whether `value` is a segment that browsers and RFC 3986 §5.2.4 remove from paths.
    static func isDotSegment(_ value: String) -> Bool { value == "." || value == ".." }

}
