import HabitsAPI

/// A route to one item of a collection, `/<collection>/:<parameter>[/<action>]`: the one place that names both the
/// pattern the router matches and the links `Links` builds to it, so the two cannot drift apart.
public struct ItemRoute: Sendable {
    /// The first path segment (`habits`).
    public let collection: String
    /// The name of the item's segment in the pattern, and of the query parameter that carries `.` and `..`.
    public let parameter: String
    /// A last segment naming what a form does to the item (`favorite`), if any.
    var action: String?

    /// The router's pattern, e.g. `/habits/:name/favorite`.
    public var pattern: String { "/" + collection + "/:" + parameter + (action.map { "/" + $0 } ?? "") }

    /// The same item's route with `action` appended (`/habits/:name` → `/habits/:name/favorite`).
    func with(action: String) -> ItemRoute { ItemRoute(collection: collection, parameter: parameter, action: action) }

    /// The link to `value`, percent-encoded as one path segment; `.` and `..` travel in the query after an empty
    /// segment instead (`Links` says why).
    public func path(_ value: String) -> String {
        let tail = action.map { "/" + $0 } ?? ""
        guard Links.isDotSegment(value) else {
            return "/" + collection + "/" + PathEncoding.encodePathSegment(value) + tail
        }
        return "/" + collection + "/" + tail + "?" + parameter + "=" + PathEncoding.encodeQueryValue(value)
    }
}
